import numpy as np

from execir.retrieve.topk import top_k_matrix, top_k_row


def reference(scores: np.ndarray, k: int) -> np.ndarray:
    return np.argsort(-scores, axis=-1, kind="stable")[..., :k]


def test_row_ties_and_bounds() -> None:
    s = np.array([1, 3, 3, 2, 3, 0], dtype=np.float32)
    assert top_k_row(s, 2).tolist() == [1, 2]
    assert top_k_row(s, 4).tolist() == [1, 2, 4, 3]
    assert top_k_row(s, 100).tolist() == [1, 2, 4, 3, 0, 5]
    assert top_k_row(s, 0).tolist() == []


def test_matrix_matches_stable_sort_with_many_ties() -> None:
    rng = np.random.default_rng(0)
    m = np.round(rng.standard_normal((50, 300)), 1).astype(np.float32)
    for k in (1, 7, 100, 300, 500):
        assert (top_k_matrix(m, k) == reference(m, k)).all()
        for row in range(5):
            assert (top_k_row(m[row], k) == reference(m[row], k)).all()
