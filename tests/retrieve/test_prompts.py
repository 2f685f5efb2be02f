"""profile_for: case-insensitive substring match on hub ids and local paths, first match wins."""

from execir.retrieve.prompts import ModelProfile, profile_for


def test_hub_ids_and_local_paths_of_one_family_share_a_profile() -> None:
    hub = profile_for("intfloat/e5-base-v2")
    assert profile_for("/models/INTFLOAT/E5-Base-V2") == hub == profile_for("intfloat/e5-large-v2")
    assert (hub.prompt("query"), hub.prompt("document")) == ("query: ", "passage: ")


def test_more_specific_patterns_win_over_their_family() -> None:
    assert profile_for("BAAI/bge-m3") == ModelProfile()  # not the bge- query instruction
    assert profile_for("BAAI/bge-small-en-v1.5").query_prompt != ""
    instruct = profile_for("intfloat/multilingual-e5-large-instruct")
    assert instruct.query_prompt.startswith("Instruct: ") and instruct.document_prompt == ""  # not e5's passage:


def test_unknown_models_get_no_prompts_and_no_remote_code() -> None:
    for model in ("sentence-transformers/all-MiniLM-L6-v2", "./my-model", ""):
        assert profile_for(model) == ModelProfile() and not profile_for(model).trust_remote_code


def test_role_selects_the_prompt() -> None:
    profile = ModelProfile(query_prompt="q: ", document_prompt="d: ")
    assert (profile.prompt("query"), profile.prompt("document")) == ("q: ", "d: ")
    qwen = profile_for("Qwen/Qwen3-Embedding-0.6B")
    assert qwen.prompt("query").endswith("\nQuery:") and qwen.prompt("document") == ""  # no space after Query:
