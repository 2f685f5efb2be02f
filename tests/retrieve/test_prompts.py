from execir.retrieve.prompts import profile_for


def test_known_profiles() -> None:
    assert profile_for("intfloat/e5-base-v2").prompt("document") == "passage: "
    assert profile_for("intfloat/e5-base-v2").prompt("query") == "query: "
    bge = profile_for("BAAI/bge-small-en-v1.5")
    assert bge.query_prompt.startswith("Represent this sentence") and bge.document_prompt == ""
    assert profile_for("BAAI/bge-m3").query_prompt == ""
    qwen = profile_for("Qwen/Qwen3-Embedding-0.6B")
    assert qwen.query_prompt == ("Instruct: Given a natural language question, retrieve code that "
                                 "answers it\nQuery:") and qwen.document_prompt == ""
    assert profile_for("nomic-ai/nomic-embed-text-v1.5").prompt("document") == "search_document: "
    assert profile_for("sentence-transformers/all-MiniLM-L6-v2").query_prompt == ""
