"""MBXP TypeScript (amazon-science/mxeval ``mbtsp_release_v1.2.jsonl``): the 967 of its 968 tasks with
a canonical solution (MBTSP/676 has none).

Program = ``prompt + canonical_solution`` (the prompt ends with the opening line of a ``const NAME =
function (...): T {``); tests = ``test`` (``import * as assert from 'assert'`` and
``assert.deepEqual(actual, expected, ...)``, loose deep equality). mxeval runs ``prompt + solution +
"\\n" + test`` as one file (``tsc f.ts --target es5 --lib es2016``, exit status 0 or 2, then ``node
f.js``); here the program is transpiled alone and the tests judge it outside its process
(:mod:`execir.execute.runtimes.ts`).

Ground truth (tsc 7.0.2, node 20): 372 canonicals pass, all judged outside. 546 do not transpile
(tsc reports a syntax error: generations cut off mid-function, or not TypeScript at all, such as
``case 0 => return 0;``); mxeval's way counts 465 of them as passing with tsc 5.9 (274 with tsc 7): the tests,
appended after an unclosed function, become part of its body and never run. 49 fail their tests: 20
fail mxeval's way as well; 29 pass it only through ``--target es5`` down-levelling, which TypeScript
7 no longer offers (mxeval's own command fails them with the tsc of today): 27 assign to a ``const``
(type error TS2588; es5 emits ``var``), MBTSP/74 iterates a ``Set`` with ``for...of`` (es5 without
``downlevelIteration`` indexes it like an array and never enters the loop) and MBTSP/499 redeclares
its parameter with ``const``. A build excludes all of them like any canonical that does not pass.
MBXP has no buggy solutions.
"""

from __future__ import annotations

from pathlib import Path

from execir.tasks.multilingual import NativeTask, load_mbxp

SOURCE = "mbxp"
FILE = "mbtsp_release_v1.2.jsonl"


def load(root: Path | None = None) -> list[NativeTask]:
    """The MBXP TypeScript tasks that have a canonical solution, in file order."""
    return load_mbxp(FILE, "typescript", root)
