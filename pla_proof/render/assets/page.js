/* pla-proof lecture page: the Perceptron run and every lemma of the proof, step by step.
 *
 * Everything is exact: numbers are rationals on BigInt, the data are scaled to integers
 * by a common denominator (as the Python engine does), and the selection rules --
 * first, cyclic, random (splitmix64 and Fisher-Yates, per epoch), maxviol -- make the
 * same choices as pla_proof's engine, update for update (the random rule draws its
 * permutations from the engine's portable generator).  No network, no library.
 */
"use strict";
(function () {
  // ---------------------------------------------------------------- exact rationals
  function bigAbs(a) { return a < 0n ? -a : a; }
  function gcd(a, b) {
    a = bigAbs(a); b = bigAbs(b);
    while (b) { const t = a % b; a = b; b = t; }
    return a;
  }
  class Q {
    constructor(n, d) {
      if (d === undefined) d = 1n;
      if (d === 0n) throw new Error("division by zero");
      if (d < 0n) { n = -n; d = -d; }
      const g = gcd(n, d) || 1n;
      this.n = n / g; this.d = d / g;
    }
    static of(v) {
      if (v instanceof Q) return v;
      if (typeof v === "bigint") return new Q(v, 1n);
      if (typeof v === "number") {
        if (!Number.isInteger(v)) throw new Error("not an exact number: " + v);
        return new Q(BigInt(v), 1n);
      }
      const s = String(v).trim();
      const slash = s.indexOf("/");
      if (slash >= 0) return new Q(BigInt(s.slice(0, slash)), BigInt(s.slice(slash + 1)));
      return new Q(BigInt(s), 1n);
    }
    add(o) { return new Q(this.n * o.d + o.n * this.d, this.d * o.d); }
    sub(o) { return new Q(this.n * o.d - o.n * this.d, this.d * o.d); }
    mul(o) { return new Q(this.n * o.n, this.d * o.d); }
    div(o) { return new Q(this.n * o.d, this.d * o.n); }
    neg() { return new Q(-this.n, this.d); }
    pow(e) { let r = new Q(1n); for (let i = 0; i < e; i++) r = r.mul(this); return r; }
    cmp(o) { const a = this.n * o.d, b = o.n * this.d; return a < b ? -1 : a > b ? 1 : 0; }
    sign() { return this.n < 0n ? -1 : this.n > 0n ? 1 : 0; }
    isInt() { return this.d === 1n; }
    toString() { return this.d === 1n ? this.n.toString() : this.n + "/" + this.d; }
    toNumber() {
      // good enough to draw: scale both to at most ~300 digits
      const n = this.n, d = this.d;
      const shift = Math.max(0, Math.max(n.toString().length, d.toString().length) - 300);
      const p = 10n ** BigInt(shift);
      return Number(n / p) / Number(d / p);
    }
  }
  const ZERO = new Q(0n), ONE = new Q(1n);

  // -------------------------------------------- numbers as text (pla_proof.render.numbers)
  function digitsOf(n) { return bigAbs(n).toString().length; }
  /** ``v`` to ``digits`` significant digits, as Python's Decimal '%g' formatting gives it. */
  function approx(q, digits) {
    if (digits === undefined) digits = 6;
    q = Q.of(q);
    if (q.n === 0n) return "0";
    const sign = q.n < 0n ? "-" : "";
    const n = bigAbs(q.n), d = q.d;
    let coef = null, exp = 0;
    let rest = d;
    while (rest % 2n === 0n) rest /= 2n;
    while (rest % 5n === 0n) rest /= 5n;
    if (rest === 1n) { // a terminating decimal: exact when it fits in `digits` digits
      let t = n, m = 0;
      while (t % d !== 0n) { t *= 10n; m++; }
      const c = t / d;
      if (c.toString().length <= digits) { coef = c.toString(); exp = -m; }
    }
    if (coef === null) {
      // e with 10^e <= n/d < 10^(e+1)
      let e = n.toString().length - d.toString().length;
      const atLeast = (x) => x >= 0 ? n >= d * 10n ** BigInt(x) : n * 10n ** BigInt(-x) >= d;
      while (!atLeast(e)) e--;
      while (atLeast(e + 1)) e++;
      const s = digits - 1 - e;
      let num = n, den = d;
      if (s >= 0) num *= 10n ** BigInt(s); else den *= 10n ** BigInt(-s);
      let c = num / den;
      const r2 = 2n * (num - c * den);
      if (r2 > den || (r2 === den && c % 2n === 1n)) c += 1n;
      exp = -s;
      if (c.toString().length > digits) { c /= 10n; exp += 1; }
      coef = c.toString();
    }
    const left = exp + coef.length;
    const dot = exp <= 0 && left > -6 ? left : 1;
    let intpart, frac;
    if (dot < 0) { intpart = "0"; frac = "." + "0".repeat(-dot) + coef; }
    else if (dot >= coef.length) { intpart = coef + "0".repeat(dot - coef.length); frac = ""; }
    else { intpart = coef.slice(0, dot) || "0"; frac = "." + coef.slice(dot); }
    let mant = intpart + frac;
    if (mant.indexOf(".") >= 0) mant = mant.replace(/0+$/, "").replace(/\.$/, "");
    const e10 = left - dot;
    return sign + mant + (e10 !== 0 ? "e" + (e10 > 0 ? "+" : "-") + Math.abs(e10) : "");
  }
  /** The exact value with its decimal beside it (``show_with_approx``). */
  function showWithApprox(q) {
    q = Q.of(q);
    const s = q.toString();
    if (s.length > 60) {
      return "≈ " + approx(q) + " (exact: a " + s.length + "-character rational, see --json)";
    }
    return q.isInt() ? s : s + " (≈ " + approx(q) + ")";
  }

  // ------------------------- the engine's portable generator: splitmix64, Fisher-Yates
  const M64 = (1n << 64n) - 1n;
  class SplitMix {
    constructor(state) { this.s = state & M64; }
    next() {
      let z = (this.s + 0x9E3779B97F4A7C15n) & M64;
      this.s = z;
      z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
      z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
      return z ^ (z >> 31n);
    }
    below(bound) { // uniform in [0, bound): rejection sampling, no modulo bias
      const b = BigInt(bound), limit = M64 - (M64 % b);
      for (;;) { const r = this.next(); if (r < limit) return Number(r % b); }
    }
  }
  /** The visiting order of epoch ``epoch`` under the random rule (pla_proof.engine.orders). */
  function permutation(n, seed, epoch) {
    const sm = new SplitMix((BigInt(seed) & M64) ^ ((BigInt(epoch) * 0xD1B54A32D192ED03n) & M64));
    const perm = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = sm.below(i + 1);
      const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    return perm;
  }

  // ------------------------------------------------------------- the engine, exactly
  function dot(a, b) { let s = 0n; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; }
  function lcm(a, b) { return a / gcd(a, b) * b; }
  /** Points (rationals) scaled by one positive integer to integers: [Z, s]. */
  function integerPoints(X) {
    let s = 1n;
    for (const x of X) for (const v of x) s = lcm(s, v.d);
    return [X.map((x) => x.map((v) => v.n * (s / v.d))), s];
  }

  class Selector {
    constructor(rule, n, seed, replay) {
      this.rule = rule; this.n = n; this.pos = 0; this.replay = replay || null;
      this.seed = seed; this.epoch = 0; this.ppos = 0;
      this.perm = rule === "random" ? permutation(n, seed, 0) : [];
    }
    pick(margins, k) {
      const n = this.n, viol = (i) => margins[i] <= 0n;
      if (this.replay) {
        if (!margins.some((m) => m <= 0n)) return null;
        const j = this.replay[k - 1];
        if (j === undefined || !viol(j)) throw new Error("replay: point " + (j + 1) + " is not a violator at update " + k);
        return j;
      }
      if (this.rule === "first") {
        for (let i = 0; i < n; i++) if (viol(i)) return i;
        return null;
      }
      if (this.rule === "cyclic") {
        for (let off = 0; off < n; off++) {
          const i = (this.pos + off) % n;
          if (viol(i)) { this.pos = (i + 1) % n; return i; }
        }
        return null;
      }
      if (this.rule === "random") {
        if (!margins.some((m) => m <= 0n)) return null;
        for (;;) {
          if (this.ppos >= n) {
            this.epoch += 1;
            this.perm = permutation(n, this.seed, this.epoch);
            this.ppos = 0;
          }
          const i = this.perm[this.ppos++];
          if (viol(i)) return i;
        }
      }
      if (this.rule === "maxviol") {
        let best = null;
        for (let i = 0; i < n; i++) if (viol(i) && (best === null || margins[i] < margins[best])) best = i;
        return best;
      }
      throw new Error("unknown rule " + this.rule);
    }
  }

  /** Kalyanakrishnan's algorithm on exact data: w_1 = 0; while some y_i w.x_i <= 0, pick j by the
   *  rule and set w <- w + y_j x_j.  Mirrors pla_proof.trainer (budget, cycle certificate). */
  function train(X, y, opts) {
    const rule = opts.rule || "cyclic", budget = opts.budget === undefined ? 10000 : opts.budget;
    const [Z, s] = integerPoints(X);
    const n = Z.length, d = Z[0].length;
    const sel = new Selector(rule, n, opts.seed || 0, opts.replay);
    let w = new Array(d).fill(0n);
    const ws = [w], choices = [], seen = new Map();
    let status = "converged", certificate = null, k = 0;
    for (;;) {
      const margins = Z.map((z, i) => BigInt(y[i]) * dot(w, z));
      const j = sel.pick(margins, k + 1);
      if (j === null) break;
      if (k >= budget) { status = "budget_exhausted"; break; }
      const yj = BigInt(y[j]);
      w = w.map((a, c) => a + yj * Z[j][c]);
      k++; choices.push(j); ws.push(w);
      const key = w.join(",");
      if (seen.has(key)) {
        const counts = new Array(n).fill(0);
        for (const i of choices.slice(seen.get(key))) counts[i]++;
        certificate = counts; status = "not_separable"; break;
      }
      seen.set(key, k);
    }
    return { status, choices, updates: k, Z, s, W: ws, rule, y, certificate };
  }

  /** The comparator: given (u, g), or the returned w (g = its smallest margin; half of it
   *  under the strict margin), as pla_proof's make_comparator does. */
  function comparatorFromFinal(run, X, strict) {
    const s = run.s, W = run.W[run.W.length - 1];
    const u = W.map((v) => new Q(v, s));
    let g = null;
    X.forEach((x, i) => {
      const m = dotQ(u, x).mul(new Q(BigInt(run.y[i])));
      if (g === null || m.cmp(g) < 0) g = m;
    });
    if (strict) g = g.div(new Q(2n));
    return { u, g, source: "final w" };
  }
  function dotQ(a, b) { let s = ZERO; for (let i = 0; i < a.length; i++) s = s.add(a[i].mul(b[i])); return s; }
  function norm2Q(a) { return dotQ(a, a); }

  /** The run vocabulary at every update, measured from the vectors (as the monitor does). */
  function measure(run, X, comp) {
    const s = run.s, s2 = new Q(s * s);
    const uu = norm2Q(comp.u);
    let R2 = ZERO;
    for (const x of X) { const r = norm2Q(x); if (r.cmp(R2) > 0) R2 = r; }
    const [Uz, su] = integerPoints([comp.u]);
    const U = Uz[0], ssu = new Q(s * su);
    const steps = [];
    for (let k = 1; k <= run.updates; k++) {
      const j = run.choices[k - 1], w0 = run.W[k - 1], w1 = run.W[k], x = run.Z[j];
      const yj = BigInt(run.y[j]);
      steps.push({
        k, j,
        v: {
          k: new Q(BigInt(k)), t: new Q(yj * dot(w0, x)).div(s2),
          pu: new Q(dot(U, w0)).div(ssu), pu1: new Q(dot(U, w1)).div(ssu),
          yux: new Q(yj * dot(U, x)).div(ssu),
          n0: new Q(dot(w0, w0)).div(s2), n1: new Q(dot(w1, w1)).div(s2),
          xx: new Q(dot(x, x)).div(s2), g: comp.g, R2, uu,
        },
      });
    }
    return { steps, R2, uu, g: comp.g, bound: R2.mul(uu).div(comp.g.mul(comp.g)) };
  }

  // ------------------------------------------------ the lemmas, from the proof's own ASTs
  function evalAst(a, v) {
    if ("s" in a) { if (!(a.s in v)) throw new Error("no value for " + a.s); return v[a.s]; }
    if ("q" in a) return Q.of(a.q);
    if ("+" in a) return a["+"].reduce((acc, t) => acc.add(evalAst(t, v)), ZERO);
    if ("*" in a) return a["*"].reduce((acc, t) => acc.mul(evalAst(t, v)), ONE);
    if ("^" in a) return evalAst(a["^"][0], v).pow(a["^"][1]);
    throw new Error("unknown expression");
  }
  function holds(l, op, r) {
    const c = l.cmp(r);
    return op === "<=" ? c <= 0 : op === "<" ? c < 0 : op === ">=" ? c >= 0 : op === ">" ? c > 0 : c === 0;
  }
  function instantiate(lem, v) {
    const lhs = evalAst(lem.lhs, v), rhs = evalAst(lem.rhs, v);
    const slack = lem.op === "<=" || lem.op === "<" ? rhs.sub(lhs) : lhs.sub(rhs);
    return { lhs, rhs, slack, holds: holds(lhs, lem.op, rhs) };
  }

  // ------------------------------------------------------------------------- the page
  const SVGNS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, parent, text) {
    const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  const OPS = { "<=": "≤", ">=": "≥", "<": "<", ">": ">", "==": "=" };
  function vec(v) { return "(" + v.map(showWithApprox).join(", ") + ")"; }

  function mount(root, P) {
    const base = {
      X: P.data.X.map((x) => x.map(Q.of)), y: P.data.y.slice(),
    };
    const st = { X: base.X.slice(), y: base.y.slice(), added: 0, k: 0, label: 1, timer: null };
    const biasC = P.data.bias ? Q.of(P.data.bias.c) : null;
    const rawD = P.data.raw_d;
    root.classList.add("pla-root");
    root.innerHTML = "";

    const head = el("header", {}, root);
    el("h1", {}, head, "The Perceptron convergence proof, step by step: " + P.data.name);
    el("p", { class: "pla-sub" }, head, P.subtitle);
    const constants = el("div", { class: "pla-constants" }, head);
    const legend = el("details", { class: "pla-legend" }, head);
    el("summary", {}, legend, "Symbols (every one used on this page)");
    const dl = el("dl", {}, legend);
    for (const s of P.symbols) {
      const dt = el("dt", {}, dl); dt.innerHTML = s.mathml;
      el("dd", {}, dl, s.meaning);
    }

    const main = el("div", { class: "pla-main" }, root);
    const left = el("section", { class: "pla-left" }, main);
    const right = el("section", { class: "pla-right" }, main);
    const plotBox = el("div", { class: "pla-plot" }, left);
    const addBox = el("div", { class: "pla-add" }, left);
    const controls = el("div", { class: "pla-controls" }, right);
    const btnFirst = el("button", { type: "button", "data-action": "first" }, controls, "|◀ Start");
    const btnPrev = el("button", { type: "button", "data-action": "prev" }, controls, "◀ Prev");
    const btnPlay = el("button", { type: "button", "data-action": "play" }, controls, "▶ Play");
    const btnNext = el("button", { type: "button", "data-action": "next" }, controls, "Next ▶");
    const btnLast = el("button", { type: "button", "data-action": "last" }, controls, "End ▶|");
    const speed = el("select", { class: "pla-speed", "aria-label": "speed" }, controls);
    for (const [label, ms] of [["slow", 1400], ["normal", 700], ["fast", 120]]) {
      const o = el("option", { value: String(ms) }, speed, label);
      if (label === "normal") o.selected = true;
    }
    const slider = el("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "update k", class: "pla-slider" }, controls);
    const kLabel = el("span", { class: "pla-k" }, controls);
    const wBox = el("div", { class: "pla-w" }, right);
    const stepBox = el("div", { class: "pla-step" }, right);
    const lemmaTable = el("table", { class: "pla-lemmas" }, right);
    const sandwichBox = el("div", { class: "pla-sandwich" }, root);
    const statusBox = el("p", { class: "pla-status", role: "status" }, root);
    const agreeBox = el("p", { class: "pla-agree" }, root);

    // --- adding points ---------------------------------------------------------------
    el("span", {}, addBox, "Add a point: ");
    const labelBtn = el("button", { type: "button", "data-action": "label", class: "pla-label" }, addBox);
    const coordInput = el("input", { type: "text", size: "18", placeholder: P.data.features.join(", "), "aria-label": "coordinates", class: "pla-coords" }, addBox);
    const addBtn = el("button", { type: "button", "data-action": "add" }, addBox, "Add");
    const resetBtn = el("button", { type: "button", "data-action": "reset" }, addBox, "Reset data");
    const addNote = el("p", { class: "pla-note" }, addBox);
    const csvLink = el("a", { class: "pla-csv", download: P.data.name.replace(/[^A-Za-z0-9_-]/g, "_") + "-edited.csv" }, addBox, "Download the data as CSV");
    function showLabel() {
      labelBtn.textContent = "label " + (st.label > 0 ? "+1 (" + P.data.labels[0] + ")" : "−1 (" + P.data.labels[1] + ")");
      labelBtn.dataset.label = String(st.label);
    }
    labelBtn.addEventListener("click", () => { st.label = -st.label; showLabel(); });
    showLabel();
    addNote.textContent = rawD <= 2
      ? "Click in the plot to add a point with the chosen label (shift-click: the other label); it is snapped to the grid, so the page stays exact. The algorithm and every check rerun from scratch."
      : "Type the point's " + rawD + " coordinates (decimals and fractions are exact). The algorithm and every check rerun from scratch.";
    function addPoint(raw, label) {
      const x = biasC ? [...raw, biasC] : raw;
      st.X = [...st.X, x]; st.y = [...st.y, label]; st.added++;
      recompute(true);
    }
    addBtn.addEventListener("click", () => {
      const parts = coordInput.value.split(/[\s,;]+/).filter((p) => p);
      if (parts.length !== rawD) { addNote.textContent = "need " + rawD + " coordinates, got " + parts.length; return; }
      let raw;
      try { raw = parts.map(parseExact); } catch (e) { addNote.textContent = String(e.message); return; }
      coordInput.value = "";
      addPoint(raw, st.label);
    });
    resetBtn.addEventListener("click", () => { st.X = base.X.slice(); st.y = base.y.slice(); st.added = 0; recompute(true); });

    // --- controls --------------------------------------------------------------------
    function setK(k) {
      const K = st.run ? st.run.updates : 0;
      st.k = Math.max(0, Math.min(K, k));
      render();
    }
    btnFirst.addEventListener("click", () => setK(0));
    btnPrev.addEventListener("click", () => setK(st.k - 1));
    btnNext.addEventListener("click", () => setK(st.k + 1));
    btnLast.addEventListener("click", () => setK(st.run.updates));
    slider.addEventListener("input", () => setK(Number(slider.value)));
    btnPlay.addEventListener("click", () => {
      if (st.timer) { stop(); return; }
      if (st.k >= st.run.updates) setK(0);
      btnPlay.textContent = "⏸ Pause";
      st.timer = setInterval(() => { if (st.k >= st.run.updates) stop(); else setK(st.k + 1); }, Number(speed.value));
    });
    function stop() { clearInterval(st.timer); st.timer = null; btnPlay.textContent = "▶ Play"; }

    // --- computing -------------------------------------------------------------------
    function recompute(edited) {
      stop();
      const original = !edited || st.added === 0;
      const rule = P.run.rule in { first: 1, cyclic: 1, random: 1, maxviol: 1 } ? P.run.rule : "cyclic";
      const replay = original && !(P.run.rule in { first: 1, cyclic: 1, random: 1, maxviol: 1 }) ? P.run.choices : null;
      let run;
      try {
        run = train(st.X, st.y, { rule, seed: P.run.seed, budget: P.run.budget, replay });
      } catch (e) {
        statusBox.textContent = "error: " + e.message; return;
      }
      st.run = run; st.original = original;
      let comp = null;
      if (original && P.comparator) {
        comp = { u: P.comparator.u.map(Q.of), g: Q.of(P.comparator.g), source: P.comparator.source };
      } else if (run.status === "converged" && run.updates > 0) {
        comp = comparatorFromFinal(run, st.X, P.run.strict);
      }
      st.comp = comp;
      st.m = comp ? measure(run, st.X, comp) : null;
      st.checks = st.m ? st.m.steps.map((s) => P.lemmas.map((lem) => instantiate(lem, s.v))) : [];
      const W = run.W[run.W.length - 1];
      let worst = null;
      st.X.forEach((x, i) => {
        const m = new Q(BigInt(st.y[i]) * dot(W, run.Z[i]), run.s * run.s);
        if (worst === null || m.cmp(worst) < 0) worst = m;
      });
      st.minMargin = worst;
      slider.max = String(run.updates);
      csvLink.href = "data:text/csv;charset=utf-8," + encodeURIComponent(toCsv());
      root.dataset.updates = String(run.updates);
      root.dataset.status = run.status;
      root.dataset.points = String(st.X.length);
      root.dataset.choices = run.choices.map((j) => j + 1).join(",");
      root.dataset.comparator = comp ? comp.source : "none";
      setK(run.updates);
      agreement();
    }
    function agreement() {
      if (!st.original) {
        agreeBox.textContent = st.added + " point(s) added: rerun in the page. To check it with pla-proof, download the CSV and run pla-proof explain on it" + (P.data.bias ? " --bias " + P.data.bias.option : "") + ".";
        agreeBox.dataset.agrees = "";
        return;
      }
      const w = st.run.W[st.run.W.length - 1].map((v) => new Q(v, st.run.s).toString());
      const same = st.run.status === P.run.status && st.run.choices.join(",") === P.run.choices.join(",") &&
        w.join(",") === P.run.w.join(",");
      agreeBox.dataset.agrees = same ? "yes" : "no";
      agreeBox.textContent = same
        ? "The in-page run agrees with pla-proof's engine update for update (" + st.run.updates + " updates, the same w)."
        : "WARNING: the in-page run differs from pla-proof's engine.";
      agreeBox.classList.toggle("pla-bad", !same);
    }
    function toCsv() {
      const names = P.data.features.concat(["label"]);
      const rows = st.X.map((x, i) => (biasC ? x.slice(0, -1) : x).map((v) => v.toString()).concat([String(st.y[i])]).join(","));
      return names.join(",") + "\n" + rows.join("\n") + "\n";
    }

    // --- rendering -------------------------------------------------------------------
    function render() {
      const run = st.run, k = st.k, K = run.updates;
      slider.value = String(k);
      kLabel.textContent = "k = " + k + " of " + K + " updates";
      root.dataset.k = String(k);
      const wk = run.W[k].map((v) => new Q(v, run.s));
      wBox.innerHTML = "";
      const wLine = el("p", { "data-w": wk.map(String).join(",") }, wBox);
      wLine.innerHTML = '<math><msub><mi>w</mi><mn>' + (k + 1) + "</mn></msub></math> = " + escapeHtml(vec(wk)) +
        (k === 0 ? " (the start, w₁ = 0)" : " after update k = " + k);
      if (P.data.bias) {
        const wr = wk.slice(0, -1), last = wk[wk.length - 1];
        const b = P.data.bias.name === "minus-one" ? last : last.mul(biasC);
        el("p", { class: "pla-wb" }, wBox, "in the convention " + P.data.bias.describe + ": w = " + vec(wr) + ", b = " + showWithApprox(b) + "; decision " + (P.data.bias.name === "minus-one" ? "w·x − b" : "w·x + b") + " > 0");
      }
      renderStep(); renderLemmas(); renderPlot(); renderSandwich(); renderStatus(); renderConstants();
      btnPrev.disabled = k === 0; btnFirst.disabled = k === 0;
      btnNext.disabled = k === K; btnLast.disabled = k === K;
    }
    function renderConstants() {
      constants.innerHTML = "";
      if (!st.m) { el("p", {}, constants, "No comparator: the data were not separated, so the lemmas have nothing to be checked against."); return; }
      const c = st.comp, m = st.m;
      const rel = P.run.strict ? "<" : "≤";
      const rows = [
        ["comparator u", vec(c.u) + " (" + c.source + ")"],
        ["g, its margin: y_i (u·x_i) " + (P.run.strict ? ">" : "≥") + " g for every i", showWithApprox(m.g)],
        ["‖u‖²", showWithApprox(m.uu)],
        ["γ² = g²/‖u‖² (unit margin γ = g/‖u‖)", showWithApprox(m.g.mul(m.g).div(m.uu))],
        ["R² = max_i ‖x_i‖²", showWithApprox(m.R2)],
        ["the theorem: k " + rel + " R²/γ² = R²·‖u‖²/g²", showWithApprox(m.bound)],
      ];
      const t = el("table", { class: "pla-consts" }, constants);
      for (const [a, b] of rows) { const tr = el("tr", {}, t); el("th", {}, tr, a); el("td", {}, tr, b); }
      constants.dataset.bound = m.bound.toString();
    }
    function renderStep() {
      const run = st.run, k = st.k;
      stepBox.innerHTML = "";
      if (k === 0) { el("p", {}, stepBox, "Before the first update: w₁ = 0, so every point has y_i w₁·x_i = 0 ≤ 0 and the algorithm must update. Press Next."); return; }
      const j = run.choices[k - 1], yj = st.y[j];
      el("p", {}, stepBox, "Update k = " + k + ": the point j = " + (j + 1) + " (y_j = " + (yj > 0 ? "+1" : "−1") + ") is misclassified, so w_" + (k + 1) + " = w_" + k + (yj > 0 ? " + " : " − ") + "x_" + (j + 1) + ".");
      stepBox.dataset.j = String(j + 1);
    }
    function renderLemmas() {
      lemmaTable.innerHTML = "";
      const k = st.k;
      const head = el("tr", {}, el("thead", {}, lemmaTable));
      for (const h of ["", "statement (proof's notation)", "left", "", "right", "slack", ""]) el("th", {}, head, h);
      const body = el("tbody", {}, lemmaTable);
      if (!st.m || k === 0) {
        const tr = el("tr", {}, body);
        el("td", { colspan: "7" }, tr, !st.m ? "no comparator: nothing to instantiate" : "the lemmas are instantiated at each update k ≥ 1");
        return;
      }
      const checks = st.checks[k - 1];
      P.lemmas.forEach((lem, i) => {
        const c = checks[i];
        const tr = el("tr", { "data-lemma": lem.id, "data-lhs": c.lhs.toString(), "data-rhs": c.rhs.toString(), "data-slack": c.slack.toString(), "data-op": lem.op, "data-holds": c.holds ? "yes" : "no", class: c.holds ? "" : "pla-bad" }, body);
        const id = el("td", { class: "pla-id", title: lem.title }, tr);
        el("strong", {}, id, lem.id);
        el("div", { class: "pla-reading" }, id, lem.reading);
        const stmt = el("td", { class: "pla-stmt" }, tr); stmt.innerHTML = lem.mathml;
        numCell(tr, c.lhs);
        el("td", { class: "pla-op" }, tr, OPS[lem.op]);
        numCell(tr, c.rhs);
        numCell(tr, c.slack);
        el("td", { class: "pla-holds" }, tr, c.holds ? "✓ holds" : "✗ FAILS");
      });
    }
    function numCell(tr, q) {
      // the exact value with its decimal beside it, as one text: "25/609 (≈ 0.0410509)"
      const td = el("td", { class: "pla-num" }, tr);
      const text = showWithApprox(q), cut = text.indexOf(" (≈");
      if (cut < 0) { td.textContent = text; return; }
      el("span", { class: "pla-exact" }, td, text.slice(0, cut));
      el("span", { class: "pla-approx" }, td, text.slice(cut));
    }
    function renderStatus() {
      const run = st.run;
      let text;
      if (run.status === "converged") {
        text = "Converged after " + run.updates + " updates: w_" + (run.updates + 1) + " separates every point (min_i y_i w·x_i = " + showWithApprox(st.minMargin) + " > 0)";
        if (st.m) {
          const all = st.checks.every((cs) => cs.every((c) => c.holds));
          const rel = P.run.strict ? "<" : "≤";
          text += "; " + (all ? "every lemma held at every update" : "a lemma FAILED") + "; Theorem: k = " + run.updates + " " + rel + " R²/γ² = " + showWithApprox(st.m.bound) + ".";
          root.dataset.allHold = all ? "yes" : "no";
        }
      } else if (run.status === "not_separable") {
        text = "NOT separable: the weights after update " + run.updates + " repeat earlier ones, so the algorithm cycles for ever. " +
          "The updates between the two visits give α = (" + run.certificate.join(", ") + ") ≥ 0 with Σ_i α_i y_i x_i = 0 (Gordan's alternative): no u has y_i (u·x_i) > 0 for every i, and the theorem says nothing.";
        root.dataset.certificate = run.certificate.join(",");
        root.dataset.allHold = "";
      } else {
        text = "No conclusion: the budget of " + P.run.budget + " updates ran out.";
        root.dataset.allHold = "";
      }
      statusBox.textContent = text;
      statusBox.classList.toggle("pla-bad", run.status !== "converged");
    }

    // --- the plot: the data and the boundary after k updates -----------------------------
    let view = null;
    function rawPoint(x) { return biasC ? x.slice(0, -1) : x; }
    function renderPlot() {
      plotBox.innerHTML = "";
      if (rawD > 2) { renderMargins(); return; }
      const W = 420, H = 420, pad = 30;
      const pts = st.X.map((x) => { const r = rawPoint(x).map((v) => v.toNumber()); return [r[0], rawD > 1 ? r[1] : 0]; });
      const base = base2d();
      const box = base.box;
      const sx = (x) => pad + (x - box[0]) / (box[1] - box[0]) * (W - 2 * pad);
      const sy = (y) => H - pad - (y - box[2]) / (box[3] - box[2]) * (H - 2 * pad);
      view = { box, W, H, pad, step: base.step };
      const svg = el("svg:svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, class: "pla-svg", "data-kind": "plane" }, plotBox);
      // grid
      const g0 = el("svg:g", { class: "pla-grid" }, svg);
      const tick = base.tick;
      for (let x = Math.ceil(box[0] / tick) * tick; x <= box[1]; x += tick) {
        el("svg:line", { x1: sx(x), x2: sx(x), y1: pad, y2: H - pad, class: Math.abs(x) < 1e-12 ? "pla-axis" : "" }, g0);
        el("svg:text", { x: sx(x), y: H - pad + 14, "text-anchor": "middle" }, g0, fmtTick(x));
      }
      for (let y = Math.ceil(box[2] / tick) * tick; y <= box[3]; y += tick) {
        el("svg:line", { x1: pad, x2: W - pad, y1: sy(y), y2: sy(y), class: Math.abs(y) < 1e-12 ? "pla-axis" : "" }, g0);
        el("svg:text", { x: pad - 4, y: sy(y) + 4, "text-anchor": "end" }, g0, fmtTick(y));
      }
      const k = st.k, run = st.run;
      const clip = el("svg:clipPath", { id: "pla-clip" }, svg);
      el("svg:rect", { x: pad, y: pad, width: W - 2 * pad, height: H - 2 * pad }, clip);
      if (k >= 1) drawLine(svg, run.W[k - 1], "pla-prev", sx, sy, box, false);
      drawLine(svg, run.W[k], "pla-boundary", sx, sy, box, true);
      const gp = el("svg:g", { class: "pla-points" }, svg);
      pts.forEach((p, i) => {
        const added = i >= base.n;
        const attrs = { "data-i": String(i + 1), "data-y": String(st.y[i]), cx: sx(p[0]), cy: sy(p[1]) };
        const mark = st.y[i] > 0
          ? el("svg:circle", Object.assign(attrs, { r: 5.5, class: "pla-pos" + (added ? " pla-added" : "") }), gp)
          : el("svg:rect", { "data-i": String(i + 1), "data-y": "-1", x: sx(p[0]) - 5, y: sy(p[1]) - 5, width: 10, height: 10, class: "pla-neg" + (added ? " pla-added" : "") }, gp);
        el("svg:title", {}, mark, "x_" + (i + 1) + " = (" + rawPoint(st.X[i]).map(String).join(", ") + "), y = " + (st.y[i] > 0 ? "+1" : "−1") + (added ? " (added)" : ""));
      });
      if (k >= 1) {
        const j = run.choices[k - 1];
        el("svg:circle", { cx: sx(pts[j][0]), cy: sy(pts[j][1]), r: 11, class: "pla-picked", "data-j": String(j + 1) }, svg);
      }
      svg.addEventListener("click", (ev) => {
        const rect = svg.getBoundingClientRect();
        const px = (ev.clientX - rect.left) * W / rect.width, py = (ev.clientY - rect.top) * H / rect.height;
        const x = box[0] + (px - pad) / (W - 2 * pad) * (box[1] - box[0]);
        const y = box[2] + (H - pad - py) / (H - 2 * pad) * (box[3] - box[2]);
        const raw = rawD > 1 ? [snap(x, base.step), snap(y, base.step)] : [snap(x, base.step)];
        addPoint(raw, ev.shiftKey ? -st.label : st.label);
      });
    }
    let base2dCache = null;
    function base2d() {
      if (base2dCache) return base2dCache;
      // the view of the original data (it stays put when points are added)
      const pts = base.X.map((x) => { const r = rawPoint(x).map((v) => v.toNumber()); return [r[0], rawD > 1 ? r[1] : 0]; });
      if (!P.data.bias) pts.push([0, 0]);
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1e-9);
      const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
      const half = span / 2 * 1.25 + span * 0.05;
      const tick = niceStep(span / 6), step = niceStep(span / 40);
      base2dCache = { box: [cx - half, cx + half, cy - half, cy + half], tick, step, n: base.X.length };
      return base2dCache;
    }
    function drawLine(svg, Wint, cls, sx, sy, box, arrow) {
      const w = Wint.map((v) => new Q(v, st.run.s).toNumber());
      const a = [w[0], rawD > 1 ? w[1] : 0];
      const c0 = biasC ? w[w.length - 1] * biasC.toNumber() : 0;
      if (a[0] === 0 && a[1] === 0) return;
      const seg = clipLine(a, c0, box);
      if (!seg) return;
      const g = el("svg:g", { class: cls, "clip-path": "url(#pla-clip)" }, svg);
      el("svg:line", { x1: sx(seg[0][0]), y1: sy(seg[0][1]), x2: sx(seg[1][0]), y2: sy(seg[1][1]), "data-role": "boundary" }, g);
      if (arrow) {
        const cx = (box[0] + box[1]) / 2, cy = (box[2] + box[3]) / 2, n2 = a[0] * a[0] + a[1] * a[1];
        const s = (a[0] * cx + a[1] * cy + c0) / n2, fx = cx - s * a[0], fy = cy - s * a[1];
        const len = 0.15 * (box[1] - box[0]) / Math.sqrt(n2);
        const tx = fx + len * a[0], ty = fy + len * a[1];
        el("svg:line", { x1: sx(fx), y1: sy(fy), x2: sx(tx), y2: sy(ty), "data-role": "normal", "marker-end": "url(#pla-arrow)" }, g);
        const defs = el("svg:defs", {}, svg);
        const mk = el("svg:marker", { id: "pla-arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" }, defs);
        el("svg:path", { d: "M 0 0 L 10 5 L 0 10 z", class: "pla-arrowhead" }, mk);
      }
    }
    function clipLine(a, c0, box) {
      const out = [];
      if (a[1] !== 0) for (const x of [box[0], box[1]]) { const y = -(c0 + a[0] * x) / a[1]; if (y >= box[2] && y <= box[3]) out.push([x, y]); }
      if (a[0] !== 0) for (const y of [box[2], box[3]]) { const x = -(c0 + a[1] * y) / a[0]; if (x >= box[0] && x <= box[1]) out.push([x, y]); }
      const uniq = [];
      for (const p of out) if (uniq.every((q) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) > 1e-12)) uniq.push(p);
      return uniq.length >= 2 ? uniq.slice(0, 2) : null;
    }
    function renderMargins() {
      // more than two coordinates: each point's margin y_i w_{k+1}·x_i as a bar
      const run = st.run, k = st.k, W = 420, rowH = 22, pad = 40;
      const n = st.X.length, H = pad + rowH * n + 10;
      const wk = run.W[k];
      const ms = run.Z.map((z, i) => new Q(BigInt(st.y[i]) * dot(wk, z), run.s * run.s));
      const top = Math.max(1e-12, ...ms.map((m) => Math.abs(m.toNumber())));
      const svg = el("svg:svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, class: "pla-svg", "data-kind": "margins" }, plotBox);
      el("svg:text", { x: W / 2, y: 16, "text-anchor": "middle", class: "pla-title" }, svg, "margins y_i w_" + (k + 1) + "·x_i (≤ 0: misclassified)");
      const mid = W / 2;
      el("svg:line", { x1: mid, x2: mid, y1: pad - 10, y2: H - 5, class: "pla-axis" }, svg);
      ms.forEach((m, i) => {
        const v = m.toNumber(), len = Math.abs(v) / top * (W / 2 - 60);
        const y0 = pad + i * rowH;
        el("svg:rect", { x: v >= 0 ? mid : mid - len, y: y0, width: Math.max(len, 1), height: rowH - 6, class: m.sign() > 0 ? "pla-ok" : "pla-viol", "data-i": String(i + 1), "data-margin": m.toString() }, svg);
        el("svg:text", { x: 4, y: y0 + rowH / 2 + 1 }, svg, (st.y[i] > 0 ? "+ " : "− ") + "x_" + (i + 1));
        el("svg:text", { x: W - 4, y: y0 + rowH / 2 + 1, "text-anchor": "end" }, svg, approx(m, 4));
      });
      if (k >= 1) {
        const j = run.choices[k - 1];
        el("svg:rect", { x: 1, y: pad + j * rowH - 2, width: W - 2, height: rowH - 2, class: "pla-picked-row", "data-j": String(j + 1) }, svg);
      }
    }

    // --- the sandwich: k γ <= u.w/|u| <= |w| <= sqrt(k) R, with a marker at k ----------
    function renderSandwich() {
      sandwichBox.innerHTML = "";
      if (!st.m || st.run.updates === 0) return;
      const W = 900, H = 300, pad = 44, m = st.m, K = st.run.updates;
      const uu = m.uu.toNumber(), gamma = m.g.toNumber() / Math.sqrt(uu), R = Math.sqrt(m.R2.toNumber());
      const bound = m.bound.toNumber();
      const xmax = Math.min(Math.max(K, bound) * 1.05, K * 3 + 1);
      const ymax = Math.max(Math.sqrt(xmax) * R, xmax * gamma) * 1.05;
      const sx = (x) => pad + x / xmax * (W - 2 * pad), sy = (y) => H - pad - y / ymax * (H - 2 * pad);
      const cap = el("p", { class: "pla-caption" }, sandwichBox);
      cap.innerHTML = P.sandwich_mathml + " after k updates, with a marker at the update shown; the outer two meet at k = R²/γ². " +
        "Square roots are taken only to draw: every check is exact, on squares.";
      const svg = el("svg:svg", { viewBox: "0 0 " + W + " " + H, width: "100%", class: "pla-svg", "data-kind": "sandwich" }, sandwichBox);

      el("svg:line", { x1: pad, x2: W - pad, y1: H - pad, y2: H - pad, class: "pla-axis" }, svg);
      el("svg:line", { x1: pad, x2: pad, y1: pad, y2: H - pad, class: "pla-axis" }, svg);
      el("svg:text", { x: W - pad, y: H - pad + 30, "text-anchor": "end" }, svg, "k (updates made)");
      const series = [
        ["lower", (s) => s.k * gamma, "k·γ"],
        ["progress", (s) => s.v.pu1.toNumber() / Math.sqrt(uu), "u·w/‖u‖"],
        ["norm", (s) => Math.sqrt(s.v.n1.toNumber()), "‖w‖"],
        ["upper", (s) => Math.sqrt(s.k) * R, "√k·R"],
      ];
      // the outer curves continued: k·γ and √k·R meet at k = R²/γ²
      const grid = Array.from({ length: 121 }, (_, i) => xmax * i / 120);
      for (const [cls, f] of [["lower", (x) => x * gamma], ["upper", (x) => Math.sqrt(x) * R]]) {
        const d = grid.map((x, i) => (i ? "L" : "M") + sx(x).toFixed(2) + " " + sy(f(x)).toFixed(2)).join(" ");
        el("svg:path", { d, class: "pla-s-" + cls + " pla-continued" }, svg);
      }
      series.forEach(([cls, f, label], idx) => {
        const d = m.steps.map((s, i) => (i ? "L" : "M") + sx(s.k).toFixed(2) + " " + sy(f(s)).toFixed(2)).join(" ");
        el("svg:path", { d, class: "pla-s-" + cls, "data-series": cls }, svg);
        el("svg:text", { x: pad + 10, y: pad + 14 * idx, class: "pla-s-" + cls + "-label" }, svg, label);
      });
      if (bound <= xmax) {
        el("svg:line", { x1: sx(bound), x2: sx(bound), y1: pad, y2: H - pad, class: "pla-bound", "data-bound": m.bound.toString() }, svg);
        el("svg:text", { x: sx(bound) - 4, y: pad + 60, "text-anchor": "end" }, svg, "R²/γ² = " + approx(m.bound));
      } else {
        el("svg:text", { x: W - pad, y: H - pad - 8, "text-anchor": "end", class: "pla-bound-far" }, svg, "bound R²/γ² = " + approx(m.bound) + " →");
      }
      for (let t = 0; t <= xmax; t += Math.max(1, niceStep(xmax / 10))) {
        el("svg:text", { x: sx(t), y: H - pad + 14, "text-anchor": "middle" }, svg, String(t));
      }
      if (st.k >= 1) el("svg:line", { x1: sx(st.k), x2: sx(st.k), y1: pad, y2: H - pad, class: "pla-marker", "data-k": String(st.k) }, svg);
    }

    recompute(false);
    return {
      setK, state: () => st, addPoint: (raw, label) => addPoint(raw.map(Q.of), label),
      rerun: () => recompute(st.added > 0),
    };
  }

  function parseExact(s) {
    s = s.trim();
    if (/^[+-]?\d+(\/\d+)?$/.test(s)) { const q = Q.of(s.replace(/^\+/, "")); return q; }
    const m = /^([+-]?)(\d*)\.(\d+)$/.exec(s) || /^([+-]?)(\d+)\.?()$/.exec(s);
    if (!m) throw new Error("not an exact number: " + s);
    const digits = (m[2] || "0") + m[3];
    const q = new Q(BigInt(digits), 10n ** BigInt(m[3].length));
    return m[1] === "-" ? q.neg() : q;
  }
  function niceStep(x) {
    const e = Math.floor(Math.log10(x)), b = Math.pow(10, e), f = x / b;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * b;
  }
  function snap(x, step) {
    // an exact grid point: step = m * 10^e with m in {1, 2, 5}
    const e = Math.floor(Math.log10(step) + 1e-9), m = Math.round(step / Math.pow(10, e));
    const unit = e >= 0 ? new Q(BigInt(m) * 10n ** BigInt(e)) : new Q(BigInt(m), 10n ** BigInt(-e));
    return new Q(BigInt(Math.round(x / step))).mul(unit);
  }
  function fmtTick(x) { return String(Math.round(x * 1e6) / 1e6); }
  function escapeHtml(s) { return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

  window.PlaProof = { Q, approx, showWithApprox, permutation, train, measure, instantiate, mount, parseExact };
  const boot = () => {
    for (const node of document.querySelectorAll("script[data-pla-payload]")) {
      const root = document.getElementById(node.dataset.plaPayload);
      root.plaPage = mount(root, JSON.parse(node.textContent));
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
