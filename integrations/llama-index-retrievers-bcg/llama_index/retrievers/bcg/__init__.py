from llama_index.retrievers.bcg.base import (
    BELIEF_QA_PROMPT,
    BeliefRetriever,
    group_to_node,
    result_to_nodes,
    unstructured_to_node,
)

__all__ = ["BELIEF_QA_PROMPT", "BeliefRetriever", "group_to_node", "result_to_nodes", "unstructured_to_node"]
