/* ExecIR report: draws the embedded plotly figures and runs the per-query browser.
   Every text is inserted with textContent; the data comes from <script type="application/json">. */
(function () {
  "use strict";

  var ROW_LIMIT = 300;

  function readJson(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  function el(name, text, className) {
    var node = document.createElement(name);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function drawCharts() {
    var figures = readJson("execir-charts") || {};
    if (typeof Plotly === "undefined") return;
    var nodes = document.querySelectorAll(".chart[data-chart]");
    for (var i = 0; i < nodes.length; i++) {
      var figure = figures[nodes[i].getAttribute("data-chart")];
      if (!figure) continue;
      // responsive plotly sizes a chart from its box on resize: give the box the figure's height
      if (figure.layout && figure.layout.height) nodes[i].style.height = figure.layout.height + "px";
      Plotly.newPlot(nodes[i], figure.data, figure.layout, { responsive: true, displaylogo: false, modeBarButtonsToRemove: ["select2d", "lasso2d"] });
    }
  }

  function fmt(value, digits) {
    return value === null || value === undefined ? "n/a" : Number(value).toFixed(digits);
  }

  function QueryBrowser(data) {
    this.data = data;
    this.search = document.getElementById("qb-search");
    this.system = document.getElementById("qb-system");
    this.operator = document.getElementById("qb-operator");
    this.outcome = document.getElementById("qb-outcome");
    this.rows = document.getElementById("qb-rows");
    this.count = document.getElementById("qb-count");
    this.detail = document.getElementById("qb-detail");
    this.selected = null;
  }

  QueryBrowser.prototype.start = function () {
    var self = this;
    this.data.operators.forEach(function (op) {
      var option = el("option", op);
      option.value = op;
      self.operator.appendChild(option);
    });
    [this.search, this.system, this.operator, this.outcome].forEach(function (control) {
      control.addEventListener(control === self.search ? "input" : "change", function () { self.render(); });
    });
    document.getElementById("qb").hidden = false;
    this.render();
  };

  QueryBrowser.prototype.matches = function (record) {
    var needle = this.search.value.trim().toLowerCase();
    if (needle) {
      var query = this.data.queries[record.q] || {};
      if (record.q.toLowerCase().indexOf(needle) < 0 && String(query.task || "").toLowerCase().indexOf(needle) < 0) return false;
    }
    if (this.system.value && this.data.systems[record.s] !== this.system.value) return false;
    if (this.operator.value && record.ops.indexOf(this.operator.value) < 0) return false;
    if (this.outcome.value && record.o.indexOf(this.outcome.value) < 0) return false;
    return true;
  };

  QueryBrowser.prototype.render = function () {
    var self = this;
    var matching = this.data.records.filter(function (record) { return self.matches(record); });
    var shown = matching.slice(0, ROW_LIMIT);
    this.rows.textContent = "";
    shown.forEach(function (record) { self.rows.appendChild(self.row(record)); });
    var total = this.data.records.length;
    var text = matching.length + " of " + total + " records match";
    if (matching.length > shown.length) text += "; the first " + shown.length + " are listed (narrow the search to see the rest)";
    this.count.textContent = text + ".";
  };

  QueryBrowser.prototype.row = function (record) {
    var self = this;
    var tr = el("tr");
    tr.tabIndex = 0;
    tr.setAttribute("data-query", record.q);
    tr.setAttribute("data-system", this.data.systems[record.s]);
    if (this.selected === record) tr.className = "selected";
    var query = this.data.queries[record.q] || {};
    var first = el("td", record.q);
    if (query.task && query.task !== record.q) first.appendChild(el("span", "task " + query.task, "sub"));
    tr.appendChild(first);
    tr.appendChild(el("td", this.data.systems[record.s]));
    tr.appendChild(el("td", record.r === null ? "none" : record.r, "num"));
    var outcome = el("td");
    record.o.forEach(function (tag) { outcome.appendChild(el("span", self.data.outcomes[tag], "tag " + tag)); });
    tr.appendChild(outcome);
    tr.appendChild(el("td", record.ops.join(", ")));
    function open() {
      var previous = self.rows.querySelector("tr.selected");
      if (previous) previous.className = "";
      tr.className = "selected";
      self.show(record);
    }
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", function (event) { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); } });
    return tr;
  };

  QueryBrowser.prototype.ranked = function (record) {
    var self = this;
    var table = el("table");
    var head = el("tr");
    ["rank", "document", "score", "grade", "kind", "operator", "task"].forEach(function (h) { head.appendChild(el("th", h)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    record.top.forEach(function (doc, index) {
      var meta = self.data.docs[doc[0]] || ["", "", ""];
      var tr = el("tr", null, "doc-row " + (doc[2] >= 2 ? "correct" : meta[0] === "mutant" ? "mutant" : "other"));
      [index + 1, doc[0], fmt(doc[1], 4), doc[2], meta[0], meta[1], meta[2]].forEach(function (value, i) {
        tr.appendChild(el("td", value, i === 3 ? "num grade-" + doc[2] : i === 0 || i === 2 ? "num" : i === 1 ? "doc-id" : null));
      });
      body.appendChild(tr);
      var text = self.data.texts[doc[0]];
      if (text === undefined) return;
      tr.title = "show the document's text";
      var textRow = el("tr", null, "doc-text");
      var cell = el("td");
      cell.colSpan = 7;
      cell.appendChild(el("pre", text));
      textRow.appendChild(cell);
      textRow.hidden = true;
      tr.addEventListener("click", function () { textRow.hidden = !textRow.hidden; });
      body.appendChild(textRow);
    });
    table.appendChild(body);
    var wrap = el("div", null, "table-wrap");
    wrap.appendChild(table);
    return wrap;
  };

  QueryBrowser.prototype.diff = function (text) {
    var pre = el("pre", null, "diff");
    text.split("\n").forEach(function (line) {
      var kind = line.indexOf("+++") === 0 || line.indexOf("---") === 0 ? "file" : line.charAt(0) === "+" ? "add" : line.charAt(0) === "-" ? "del" : line.indexOf("@@") === 0 ? "hunk" : "ctx";
      pre.appendChild(el("span", line || " ", kind));
    });
    return pre;
  };

  QueryBrowser.prototype.show = function (record) {
    this.selected = record;
    var query = this.data.queries[record.q] || {};
    var box = this.detail;
    box.textContent = "";
    box.appendChild(el("h3", record.q + " \u2014 " + this.data.systems[record.s]));
    var facts = "task " + (query.task || "?") + "; exec@1 " + fmt(record.e, 0) + "; canonical at rank " + (record.r === null ? "none (not retrieved)" : record.r);
    if (record.cs !== null && record.cs !== undefined) facts += " with score " + fmt(record.cs, 4);
    box.appendChild(el("p", facts + ".", "note"));
    box.appendChild(el("h4", "Query"));
    box.appendChild(el("pre", query.text || "", "query"));
    box.appendChild(el("h4", "Top 10 (choose a document for its text)"));
    box.appendChild(record.top.length ? this.ranked(record) : el("p", "Nothing was retrieved.", "note"));
    if (record.d && this.data.diffs[record.d] !== undefined) {
      box.appendChild(el("h4", "Canonical program \u2192 the document that beat it"));
      var diffText = this.data.diffs[record.d];
      box.appendChild(diffText ? this.diff(diffText) : el("p", "The two texts are identical.", "note"));
    } else if (record.c && this.data.texts[record.c] !== undefined) {
      box.appendChild(el("h4", "Canonical program"));
      box.appendChild(el("pre", this.data.texts[record.c]));
    }
  };

  function start() {
    drawCharts();
    var data = readJson("execir-queries");
    if (data && document.getElementById("qb")) new QueryBrowser(data).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
