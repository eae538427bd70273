# Add to tests/test_scoring_views.py once lesson 09 uses the view (with widgets.__init__ exporting it):

LESSON = Path(__file__).resolve().parent.parent / "lessons" / "09-scoring.ipynb"


def test_lesson_09_draws_the_total_with_the_view() -> None:
    cells = json.loads(LESSON.read_text("utf-8"))["cells"]
    sources = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    assert any("attackers_total_view(captured)" in source for source in sources)
    assert not any("attackers_points()" in source for source in sources)  # the view says A, and how
