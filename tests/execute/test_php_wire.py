"""PHP's wire codec (``runtimes/harness/php_wire.php``) run by the real php: values round-trip
exactly (type, bytes, key order, float bits), strict encoding refuses what has no exact form, and
malformed text is refused."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from execir.execute.runtimes.base import harness_source

pytestmark = pytest.mark.skipif(shutil.which("php") is None, reason="php not installed")

ROUND_TRIP = r"""
$o = new stdClass(); $o->a = 1; $o->{'0'} = [2.5]; $o->{"\xff"} = null;
$values = [null, true, false, 0, -5, PHP_INT_MAX, PHP_INT_MIN, 1.5, -0.0, 0.0, NAN, INF, -INF, 1e100, 0.1 + 0.2, 5e-324, 1.0,
  "", "abc", "é\n\"\\\x01", "\xff\xfe", "😀", [], [1, [2, [3]]], [1 => 'a', 0 => 'b'], ['x' => 1, 5 => 2, '05' => 3], [3 => 'gap'],
  ['k' => ['n' => [true]]], $o, [clone $o, 'o' => clone $o]];
foreach ($values as $i => $value) {
    $text = ExecIRWire::encode($value, true);
    $back = ExecIRWire::build(ExecIRWire::parse($text));
    $same = is_float($value) && is_nan($value) ? is_float($back) && is_nan($back) : $back == $value && serialize($back) === serialize($value);
    if (is_float($value) && $value == 0.0) { $same = $same && (fdiv(1.0, $back) < 0) === (fdiv(1.0, $value) < 0); }
    if (!$same || ExecIRWire::encode($back, true) !== $text || json_decode($text) === null && $text !== 'null') {
        echo "not exact: $i $text\n"; exit(1);
    }
}
if (ExecIRWire::encode(1, true) === ExecIRWire::encode(1.0, true)) { echo "int and float\n"; exit(1); }
$cycle = new stdClass(); $cycle->self = $cycle;
class Mine { public $v = 1; }
foreach ([$cycle, new Mine(), fn() => 1, STDIN] as $bad) {
    try { ExecIRWire::encode($bad, true); echo "strict took " . get_debug_type($bad) . "\n"; exit(1); } catch (ExecIRUnencodable $e) {}
}
$mine = ExecIRWire::build(ExecIRWire::parse(ExecIRWire::encode(new Mine(), false)));
if (!($mine instanceof ExecIROpaque) || $mine->v !== 1 || $mine == new stdClass()) { echo "opaque\n"; exit(1); }
if (ExecIRWire::encodeCall([1, 'a'], true) !== '[1,{"s":"a"}]' || ExecIRWire::decodeCall('[1,{"s":"a"}]') !== [1, 'a']) { echo "call\n"; exit(1); }
try { ExecIRWire::encodeCall(['k' => 1], true); echo "named\n"; exit(1); } catch (ExecIRUnencodable $e) {}
foreach (['[1,', '{"zz":1}', '["a"]', '[1.5]', '{"f":"1e5x"}', '{"x":"f"}', '{"m":[[1,2],[1,3]]}', '99999999999999999999', '{"s":"a","x":"62"}'] as $bad) {
    try { ExecIRWire::build(ExecIRWire::parse($bad)); echo "decoded $bad\n"; exit(1); } catch (ExecIRMalformed $e) {}
}
echo "ok\n";
"""


def test_wire_round_trip_and_refusals(tmp_path):
    script = tmp_path / "wire_test.php"
    script.write_text(harness_source("php_wire.php") + ROUND_TRIP, encoding="utf-8")
    php = shutil.which("php")
    assert php is not None
    done = subprocess.run([php, "-n", "-d", "serialize_precision=-1", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout[-2000:] + done.stderr[-2000:]
