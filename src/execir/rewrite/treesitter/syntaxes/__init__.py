"""One tree-sitter rewrite :class:`~execir.rewrite.treesitter.syntax.Syntax` per language, each named by
the language's declaration (``rewrite_syntax``)."""
