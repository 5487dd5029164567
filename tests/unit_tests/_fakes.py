"""Small scripted chat models shared by the unit tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedToolCallModel(BaseChatModel):
    """Answers every call with the AIMessage ``respond(messages)`` builds.

    ``bind_tools`` returns the model itself, so ``with_structured_output`` works when the
    script emits a tool call named after the schema.
    """

    respond: Callable[[list[BaseMessage]], AIMessage]
    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-call"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.respond(messages))])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolCallModel:
        return self
