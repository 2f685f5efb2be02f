"""The per-language grammar description the shared families read.

A :class:`Grammar` names the tree-sitter node types and fields of one language's expressions and
statements, and the spellings its operators and literals use. Every field has the value most
C-family grammars (C++, Java, Go, JavaScript) share, so a language states only what differs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from tree_sitter import Node

from execir.languages.treesitter.program import Program

Declarations = Callable[[Program, Node], Iterable[tuple[Node, str | None]]]
"""(program, function node) -> (name node, declared type text or None) of every local name
(parameters included) the function declares."""


def _frozen(mapping: Mapping[str, tuple[str, ...]]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType(dict(mapping))


def _no_declarations(program: Program, function: Node) -> Iterator[tuple[Node, str | None]]:
    return iter(())


ARITH: Mapping[str, tuple[str, ...]] = _frozen(
    {
        "+": ("-",),
        "-": ("+",),
        "*": ("/",),
        "/": ("*", "-"),
        "%": ("/", "-"),
    }
)
"""Arithmetic swaps of C-family languages: symbol -> replacement symbols."""

BITWISE: Mapping[str, tuple[str, ...]] = _frozen(
    {
        "&": ("|",),
        "|": ("&",),
        "^": ("|",),
        "<<": (">>",),
        ">>": ("<<",),
    }
)
"""Bitwise swaps of C-family languages."""

COMPARE_SWAP: Mapping[str, tuple[str, ...]] = _frozen(
    {
        "<": ("<=",),
        "<=": ("<",),
        ">": (">=",),
        ">=": (">",),
        "==": ("!=",),
        "!=": ("==",),
    }
)
"""Boundary and negation swaps of comparisons."""

COMPARE_FLIP: Mapping[str, tuple[str, ...]] = _frozen({"<": (">",), ">": ("<",), "<=": (">=",), ">=": ("<=",)})
"""Direction flips of comparisons."""

COMPARE_REPLACE: Mapping[str, tuple[str, ...]] = _frozen(
    {
        "<": (">=", "=="),
        ">": ("<=", "=="),
        "<=": (">",),
        ">=": ("<",),
        "==": ("<", ">"),
    }
)
"""Replacements across the equality/ordering divide and negations of orderings (what
``compare_swap`` and ``compare_flip`` leave out)."""

BOOLEAN: Mapping[str, tuple[str, ...]] = _frozen({"&&": ("||",), "||": ("&&",)})
"""Short-circuit operator swaps."""

NON_COMMUTATIVE: frozenset[str] = frozenset({"-", "/", "%", "<<", ">>", "<", "<=", ">", ">="})
"""Binary operators whose operands' order matters (``operand_swap`` targets)."""

_SPELLING_SETS = frozenset(
    {"mutating_methods", "non_commutative", "unwrap_calls", "namespaces", "index_calls", "ordered_calls", "numeric_types", "member_methods", "paired_calls"}
)
"""The :class:`Grammar` fields that hold spellings (operators, names, types), not node types."""


@dataclass(frozen=True)
class Grammar:
    """How one tree-sitter grammar spells what the shared families mutate.

    Node-type sets name the nodes of a kind; ``(object field, name field)`` pairs say where a
    member access keeps its parts. Operator tables map a symbol to its replacements; an operator
    absent from a table is never touched. Defaults are the C-family shapes (see the module doc).
    """

    name: str
    binary: frozenset[str] = frozenset({"binary_expression"})
    """Nodes with ``left``/``operator``/``right`` fields."""
    unary: frozenset[str] = frozenset({"unary_expression"})
    unary_operand: str = "argument"
    """Field of a unary node holding its operand."""
    update: frozenset[str] = frozenset({"update_expression"})
    """``i++``/``--i`` nodes (an operand child and an operator token)."""
    assignment: frozenset[str] = frozenset({"assignment_expression"})
    """Nodes with ``left``/``operator``/``right`` whose operator is ``=`` or ``op=``."""
    call: frozenset[str] = frozenset({"call_expression"})
    call_function: str = "function"
    """Field of a call holding the callee expression (absent on Java's ``method_invocation``)."""
    arguments: str = "arguments"
    spreads: frozenset[str] = frozenset()
    """Argument nodes that expand to several values (``...xs``): a call with one is never unwrapped."""
    member: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Member-access node type -> (object field, member-name field)."""
    subscript: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Subscript node type -> (object field, index field)."""
    slices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Slice node type -> its bound fields (Go's ``a[i:j]``)."""
    index_calls: frozenset[str] = frozenset()
    """Method names whose arguments are indices or bounds (``get``, ``charAt``, ``substr``):
    ``off_by_one`` targets them like subscripts."""
    index_wrappers: frozenset[str] = frozenset()
    """Nodes wrapping a subscript's index (C++'s ``subscript_argument_list``)."""
    parenthesized: frozenset[str] = frozenset({"parenthesized_expression"})
    condition_wrappers: frozenset[str] = frozenset({"parenthesized_expression"})
    """Nodes that hold a statement's condition (``(c)``, C++'s ``condition_clause``)."""
    expression_lists: frozenset[str] = frozenset()
    """Nodes listing expressions (Go's ``expression_list``); one-element lists are looked through."""
    conditional: frozenset[str] = frozenset({"if_statement", "while_statement", "do_statement", "for_statement"})
    """Statements whose ``condition`` field is a condition."""
    ternary: frozenset[str] = frozenset()
    """Conditional expressions (``c ? a : b``), with a ``condition`` field."""
    branches: frozenset[str] = frozenset({"if_statement", "while_statement", "do_statement"})
    """Statements whose condition chooses a branch (``not_insert``, ``condition_const`` targets:
    not counting loops, whose negated bound rarely terminates)."""
    loops: frozenset[str] = frozenset({"for_statement"})
    """Counting loops whose ``condition`` field bounds the loop (``off_by_one`` targets)."""
    loop_clause: str | None = None
    """A node inside a loop holding its condition (Go's ``for_clause``)."""
    if_statement: str = "if_statement"
    else_clause: str | None = None
    """The node wrapping an ``else`` branch (``else_clause``), or None when the branch hangs off
    the ``if`` directly (its ``alternative`` field)."""
    returns: frozenset[str] = frozenset({"return_statement"})
    statements: frozenset[str] = frozenset({"expression_statement"})
    """Simple statements ``statement_delete`` may delete."""
    compound: frozenset[str] = frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_statement"})
    """Statements holding statements (``statement_delete`` deletes them whole)."""
    exits: frozenset[str] = frozenset({"return_statement", "break_statement", "continue_statement", "throw_statement"})
    """Statements that leave a block (a guard's body is made of them)."""
    blocks: frozenset[str] = frozenset()
    """Statement containers (``{ ... }``)."""
    empty_statement: str | None = ";"
    """What replaces a deleted statement that is not in a block (``if (c) x++;``), or None when
    bodies are always blocks."""
    loop_control: Mapping[str, str] = field(default_factory=lambda: {"break_statement": "continue", "continue_statement": "break"})
    """Statement type -> its swapped keyword."""
    numbers: frozenset[str] = frozenset()
    strings: frozenset[str] = frozenset()
    booleans: Mapping[str, str] = field(default_factory=lambda: {"true": "false", "false": "true"})
    """Boolean literal node type -> the other literal's spelling."""
    identifiers: frozenset[str] = frozenset({"identifier"})
    functions: frozenset[str] = frozenset()
    """Function bodies that scope local names (``variable_misuse``)."""
    declarations: Declarations = _no_declarations
    typed_misuse: bool = False
    """``variable_misuse`` swaps only names whose types are both known and equal (Go, whose
    compiler rejects any mismatch); otherwise an unknown type matches any."""
    return_type: str | None = None
    """Field of a function node holding its declared result type (None: untyped language)."""
    numeric_types: frozenset[str] = frozenset()
    """Result types that are numbers (``term_insert`` adds to returned values only then)."""
    scopes: frozenset[str] = frozenset()
    """Nodes besides blocks and functions that scope the names declared in them (loops with an
    initializer, lambdas, catch clauses)."""
    body_scopes: frozenset[str] = frozenset()
    """Nodes whose declared names are visible only in their ``body`` field (Rust's ``for x in
    xs { .. }``: ``x`` is not in scope in ``xs``)."""
    exact_types: bool = False
    """``variable_misuse`` compares whole declared types, generic arguments included (Rust, which
    never turns a ``Vec<i32>`` into a ``Vec<String>``); otherwise only the base type."""
    immutable: Callable[[Node], bool] | None = None
    """Whether a declared name (a node ``declarations`` yields) cannot be written (Rust: no ``mut``):
    ``variable_misuse`` never puts such a name where the use is written (an assignment's target, the
    receiver of one of ``mutating_methods``). None: every local can be written."""
    mutating_methods: frozenset[str] = frozenset()
    """Methods that change their receiver (``push``, ``sort``), for ``immutable``."""
    initializers: frozenset[str] = frozenset()
    """Element lists (``{1, 2}``, ``[1, 2]``) whose elements ``element_delete`` may delete."""
    arith: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: ARITH)
    bitwise: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: BITWISE)
    compare_swap: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: COMPARE_SWAP)
    compare_flip: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: COMPARE_FLIP)
    compare_replace: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: COMPARE_REPLACE)
    boolean: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: BOOLEAN)
    non_commutative: frozenset[str] = NON_COMMUTATIVE
    negation: str = "!"
    """Prefix that negates a parenthesized condition."""
    true: str = "true"
    false: str = "false"
    min_max: Mapping[str, str] = field(default_factory=lambda: {"min": "max", "max": "min"})
    """Callee name -> its mirror for ``min_max_swap`` (the last name of a qualified callee)."""
    methods: Mapping[str, str] = field(default_factory=dict)
    """Method or function name -> its mirror for ``method_swap``."""
    ordered_calls: frozenset[str] = frozenset()
    """Callees whose arguments play fixed roles (Go's ``append``, ``make``): ``arg_swap`` leaves
    them alone."""
    namespaces: frozenset[str] = frozenset()
    """Receivers that name a package or class rather than a value (``Math``, ``strings``):
    ``call_unwrap`` never reduces ``Math.abs(x)`` to ``Math``."""
    unwrap_calls: frozenset[str] = frozenset()
    """Callee names ``call_unwrap`` may remove (``abs(x)`` -> ``x``); empty means any one-argument
    call and any ``max``/``min`` of two."""
    typed_edits: bool = False
    """The operators that move or replace expressions (``receiver_swap``, ``call_unwrap``,
    ``attribute_swap``, ``term_insert``, ``return_swap``, ``arg_delete``, ``method_swap``) keep
    only candidates the compiler accepts as far as the file's declarations tell
    (:mod:`~execir.languages.treesitter.families.types`): C++ and Java."""
    implicit_arithmetic: bool = False
    """Any arithmetic type converts to any other (C++); otherwise Java's widening rules."""
    boolean_type: str = "bool"
    string_type: str | None = None
    """The type of a string literal (``String``), None where it is not the string class (C++)."""
    characters: frozenset[str] = frozenset()
    """Character literal nodes (their type is ``char``)."""
    casts: frozenset[str] = frozenset()
    """Cast nodes with a ``type`` field."""
    method_results: Mapping[str, str] = field(default_factory=dict)
    """Method name -> the type it returns, or :data:`~.types.ELEMENT` / :data:`~.types.SAME`
    (the receiver's element type or own type); typed grammars only."""
    function_results: Mapping[str, str] = field(default_factory=dict)
    """Free or static function name (or ``Namespace.name``, looked up first) -> the type it
    returns, or ``ELEMENT`` / ``SAME`` of its first argument."""
    optional_arguments: Mapping[str, int] = field(default_factory=dict)
    """Typed grammars: callee name -> the fewest arguments it takes (``substr`` 0): ``arg_delete``
    deletes arguments only of these calls, down to that many, and only the ones after that many
    (the optional ones)."""
    bare_expression_statements: bool = True
    """Any expression may be a statement (C++'s ``v;``); Java allows only calls and assignments."""
    paired_methods: Mapping[str, str] = field(default_factory=dict)
    """``method_swap`` in typed grammars: a method whose mirror must change together with a
    sibling argument's (``begin`` with ``end``: ``sort(v.begin(), v.end())`` ->
    ``sort(v.rbegin(), v.rend())``, one edit)."""
    paired_calls: frozenset[str] = frozenset()
    """Callees whose result does not depend on the type of the iterators they take (``sort``,
    ``accumulate``): only their ``paired_methods`` arguments are mirrored."""
    member_methods: frozenset[str] = frozenset()
    """Typed grammars: names that ``method_swap`` mirrors and ``optional_arguments`` shortens only
    when called as members (``s.find``: ``std::find`` has no ``rfind`` and needs all three)."""

    def node_types(self) -> Iterator[str]:
        """Every node type the description names (for checking it against the grammar)."""
        for name, value in vars(self).items():
            if isinstance(value, frozenset) and name not in _SPELLING_SETS:
                yield from value
        yield from self.member
        yield from self.subscript
        yield from self.slices
        yield from self.loop_control
        yield from self.booleans
        yield from (name for name in (self.if_statement, self.else_clause, self.loop_clause) if name is not None)
