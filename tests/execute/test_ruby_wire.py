"""Ruby's wire codec (``runtimes/harness/ruby_wire.rb``) run by the real ruby: values round-trip
exactly (the text of a decoded value is the text it came from), argument lines are strict, and
malformed text is refused."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from execir.execute.runtimes.base import harness_source

pytestmark = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby not installed")

ROUND_TRIP = r"""
values = [nil, true, false, 0, -5, 2**70, -(2**62), 2**62 - 1, 1.5, -0.0, Float::NAN, Float::INFINITY, -Float::INFINITY,
  1e20, 0.1 + 0.2, 1e-7, "abc", "é\n\"\\\x01", "\xff\xfe".b, "abc".b, "x".encode("US-ASCII"), "\xff".dup.force_encoding("UTF-8"),
  "日本".encode("UTF-16LE"), :sym, :"é", [1, [2, [3]]], {1 => "a", "b" => [2], [1] => {x: 1}}, Hash.new(0).merge(a: 1),
  (1..5), (1...5), ("a".."c"), (1..), Set[3, 1, 2], Rational(3, 4), Complex(1, 2.5), BigDecimal("1.25"), "😀"]
values.each do |value|
  text = ExecIRWire.encode(value, true)
  back = ExecIRWire.build(ExecIRWire.parse(text))
  same = value.is_a?(Float) && value.nan? ? back.nan? : back == value && back.class == value.class
  same &&= back.encoding == value.encoding if value.is_a?(String)
  raise "not exact: #{value.inspect} -> #{text} -> #{back.inspect}" unless same && ExecIRWire.encode(back, true) == text
end
cycle = [1]
cycle << cycle
raise "a cycle is opaque" unless ExecIRWire.encode(cycle, false) == '[1,{"o":1}]'
%w[strict].each do
  [cycle, Class.new(Array).new, ->(x) { x }, Hash.new { 0 }].each do |bad|
    ExecIRWire.encode(bad, true)
    raise "strict encoding took #{bad.inspect}"
  rescue ExecIRWire::Unencodable
    nil
  end
end
line = ExecIRWire.encode_call([1, "a"], {k: 2}, true)
raise line unless ExecIRWire.decode_call(line) == [[1, "a"], {k: 2}]
['[1,', '{"zz":1}', '["a"]', '{"s":"\ud800"}', '{"f":"1e5"}', '[1.5]', '{"s":"a","e":"NOPE"}', '[01]', '{"x":"f"}', '{"s":"a"} '].each do |bad|
  ExecIRWire.build(ExecIRWire.parse(bad))
  raise "decoded malformed #{bad}"
rescue ExecIRWire::Malformed
  nil
end
point = Struct.new(:x, :y).new(1, 2)
back = ExecIRWire.build(ExecIRWire.parse(ExecIRWire.encode(point, false)))
raise "struct" unless back.to_a == [1, 2] && back.y == 2
raise "enumerator" unless ExecIRWire.build(ExecIRWire.parse(ExecIRWire.encode(3.times, false))).to_a == [0, 1, 2]
puts "ok"
"""


def test_wire_round_trip_and_refusals(tmp_path):
    script = tmp_path / "wire_test.rb"
    script.write_text(harness_source("ruby_wire.rb") + ROUND_TRIP, encoding="utf-8")
    ruby = shutil.which("ruby")
    assert ruby is not None
    done = subprocess.run([ruby, "--disable-gems", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
