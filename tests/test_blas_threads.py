"""OpenBLAS's thread count, lowered for a product of several queries, is lowered whichever
thread asks (threadpoolctl's own setter ignores every thread but the first one that set it
while that one lives), and is put back after; the products stay numpy's bit for bit."""

import threading

import numpy as np
import pytest

from bcg_rag import blas


@pytest.fixture(scope="module")
def openblas():
    libs = blas._libraries()
    if not libs:
        pytest.skip("no OpenBLAS on a pthreads pool here")
    return libs[0]


def test_a_second_thread_sets_the_count_while_the_first_setter_lives(openblas):
    before = openblas.get_num_threads()
    first_set, release = threading.Event(), threading.Event()

    def first():
        openblas.set_num_threads(1)
        openblas.set_num_threads(before)
        first_set.set()
        release.wait(10)  # the first thread to set the count stays alive

    seen = []

    def second():
        openblas.set_num_threads(1)
        seen.append(openblas.get_num_threads())
        openblas.set_num_threads(before)
        seen.append(openblas.get_num_threads())

    t1 = threading.Thread(target=first)
    t1.start()
    assert first_set.wait(10)
    t2 = threading.Thread(target=second)
    t2.start()
    t2.join(10)
    release.set()
    t1.join(10)
    assert seen == [1, before]


def test_products_in_many_threads_are_numpys_and_leave_the_count_as_it_was(openblas):
    before = openblas.get_num_threads()
    rng = np.random.default_rng(7)
    rows = rng.standard_normal((1_300, 384)).astype(np.float32)
    queries = [rng.standard_normal((n, 384)).astype(np.float32) for n in (1, 8, 1, 3, 1, 20)]
    expected = [q @ rows.T for q in queries]
    results: dict[int, list] = {}

    def work(i):
        results[i] = [blas.similarities(q, rows) for q in queries for _ in range(5)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for got in results.values():
        for k, product in enumerate(got):
            assert np.array_equal(product, expected[k // 5])
    assert len(results) == 4
    assert openblas.get_num_threads() == before
