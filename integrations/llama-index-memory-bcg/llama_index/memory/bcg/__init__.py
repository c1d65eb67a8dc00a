from llama_index.memory.bcg.base import BeliefChatMemory, BeliefMemoryBlock

__all__ = ["BeliefChatMemory", "BeliefMemoryBlock"]
