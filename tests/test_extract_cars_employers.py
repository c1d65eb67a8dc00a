"""Employers, jobs and cars as chat says them: a change of employer by 从X跳去Y, the next employer
after a job left in the message ("从网易离职了，下个月去米哈游"), a company's city branch ("在顺丰武汉
这边做调度" works at 顺丰), work done full-time as the job ("现在全职画插画接稿"), the household's car
("家里就一辆Model Y") and a car sold by its kind ("车卖了"), a car picked up or sold by its model
alone ("sold the fiesta ... and picked up a used Skoda Octavia estate"). Near misses stay silent."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize("text, expected", [
    # a change of employer by 跳去 / 跳到 / 跳槽去, with 从
    ("老王刚从腾讯跳去拼多多，说那边的强度要把他熬干了", [("老王", "works_at", "腾讯", -0.8), ("老王", "works_at", "拼多多", 1.0)]),
    ("我从腾讯跳槽去拼多多了", [(USER, "works_at", "腾讯", -0.8), (USER, "works_at", "拼多多", 1.0)]),
    # after a job left in the message, where one goes next month is the next employer (from its date)
    ("从网易离职了，下个月去米哈游", [(USER, "works_at", "网易", -0.8), (USER, "plan:works_at", "米哈游", 0.5),
                                     (USER, "works_at", "米哈游", 1.0, 30)]),
    ("离职手续办完了，下个月去南屿生物", [(USER, "plan:works_at", "南屿生物", 0.5), (USER, "works_at", "南屿生物", 1.0, 30)]),
    # near misses: a trip, one common word, no job left, a page
    ("从网易离职了，下个月去上海", [(USER, "works_at", "网易", -0.8)]),
    ("辞职了，下周去医院", [(USER, "does", "job", -0.8)]),
    ("下个月去米哈游", []),
    ("从第一页跳到第三页", []),
])
def test_zh_next_employer(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("车卖了！！养车太费钱，现在家里没车了", [(USER, "owns", "car", -0.8), (USER, "does", "car", -0.8)]),
    ("把车卖掉了", [(USER, "owns", "car", -0.8), (USER, "does", "car", -0.8)]),
    ("家里就一辆Model Y，平时主要我开", [(USER, "owns", "Model Y", 1.0)]),
    ("蛋糕卖了", [(USER, "does", "蛋糕", -0.8)]),  # a cake sold is no car
])
def test_zh_the_household_car(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("双十一前后我天天通宵，在顺丰武汉这边做调度", [(USER, "works_at", "顺丰", 1.0), (USER, "job_title", "调度", 1.0)]),
    ("我在腾讯深圳上班", [(USER, "works_at", "腾讯", 1.0)]),
    ("我在北京大学工作", [(USER, "works_at", "北京大学", 1.0)]),  # one name: not cut
    ("sold the fiesta for basically scrap money lol and picked up a used Skoda Octavia estate",
     [(USER, "owns", "fiesta", -0.8), (USER, "owns", "Skoda Octavia estate", 1.0)]),
    ("picked up a used Skoda Octavia", [(USER, "owns", "Skoda Octavia", 1.0)]),
    ("picked up the kids from school", []),
    ("picked up a cold", []),
])
def test_a_branch_and_a_car_by_its_model(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("辞职了！不当老师了，现在全职画插画接稿，自由是自由", [(USER, "does", "job", -0.8), (USER, "job_title", "老师", -0.8),
                                                      (USER, "job_title", "插画", 1.0)]),
    ("全职在家", []),
    ("全职太太", []),
])
def test_zh_work_done_full_time_is_the_job(extractor, text, expected):
    assert triples(extractor, text) == expected
