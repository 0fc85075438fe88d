// pla-proof diagnosis page: each diagnosis drawn, and both trajectories as a stepper.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('pla-diagnosis-data').textContent);
  const root = document.getElementById('pla-diagnosis');
  const NS = 'http://www.w3.org/2000/svg';
  const W = 420, H = 360, PAD = 28;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sv(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  const vec = (v) => '(' + v.map((a) => a.e).join(', ') + ')';

  function section(d, index) {
    const sec = el('section', {'class': 'pla-diagnosis', 'data-property': d.property,
      'data-mechanism': d.mechanism});
    sec.appendChild(el('h2', {}, d.property + ': ' + d.mechanism));
    if (d.words) sec.appendChild(el('p', {'class': 'pla-words'}, d.words));
    if (d.why) sec.appendChild(el('p', {'class': 'pla-note'}, 'no trajectory to compare: ' + d.why));
    if (d.lemma.length) sec.appendChild(el('div', {'class': 'pla-lemma'}, d.lemma.join('\n')));
    sec.appendChild(el('p', {'class': 'pla-note'}, 'watched: ' + (d.observed || 'nothing') +
      (d.reference ? '; compared with ' + d.reference : '')));
    if (!d.points.length || !d.trajectory.length) return sec;
    const row = el('div', {'class': 'pla-row'});
    const svg = sv('svg', {'class': 'pla-svg', 'width': W, 'height': H, 'viewBox': `0 0 ${W} ${H}`,
      'role': 'img', 'aria-label': 'the points and both separators'});
    row.appendChild(svg);
    const stepper = el('div', {'class': 'pla-stepper'});
    row.appendChild(stepper);
    sec.appendChild(row);
    draw(d, svg, stepper, index);
    return sec;
  }

  function draw(d, svg, stepper, index) {
    const dims = d.dims, bias = d.bias;
    const xs = d.points.map((p) => p.slice(0, dims).map((a) => a.f));
    const px = xs.map((p) => p[0]), py = xs.map((p) => (dims >= 2 ? p[1] : 0));
    const span = (vals) => {
      let lo = Math.min(...vals, 0), hi = Math.max(...vals, 0);
      if (hi - lo < 1e-12) { lo -= 1; hi += 1; }
      const m = (hi - lo) * 0.15;
      return [lo - m, hi + m];
    };
    const [x0, x1] = span(px), [y0, y1] = dims >= 2 ? span(py) : [-1, 1];
    const sx = (x) => PAD + (x - x0) / (x1 - x0) * (W - 2 * PAD);
    const sy = (y) => H - PAD - (y - y0) / (y1 - y0) * (H - 2 * PAD);
    svg.appendChild(sv('line', {'class': 'pla-axis', x1: sx(x0), y1: sy(0), x2: sx(x1), y2: sy(0)}));
    if (dims >= 2) svg.appendChild(sv('line', {'class': 'pla-axis', x1: sx(0), y1: sy(y0), x2: sx(0), y2: sy(y1)}));
    if (dims > 2) {
      const t = sv('text', {x: PAD, y: 16}); t.textContent = `the first two of ${dims} coordinates (the others taken as 0)`;
      svg.appendChild(t);
    } else if (dims === 1) {
      const t = sv('text', {x: PAD, y: 16}); t.textContent = 'the points on a line';
      svg.appendChild(t);
    }
    const impl = sv('line', {'class': 'pla-impl', 'data-line': 'implementation'});
    const ref = sv('line', {'class': 'pla-ref', 'data-line': 'algorithm'});
    // a short stroke from each separator towards the side it calls positive
    const implSide = sv('line', {'class': 'pla-impl', 'data-side': 'implementation'});
    const refSide = sv('line', {'class': 'pla-ref', 'data-side': 'algorithm'});
    svg.appendChild(ref); svg.appendChild(impl); svg.appendChild(refSide); svg.appendChild(implSide);
    impl.side = implSide; ref.side = refSide;
    const focus = sv('circle', {'class': 'pla-focus', r: 10, visibility: 'hidden'});
    svg.appendChild(focus);
    xs.forEach((p, i) => {
      const c = sv('circle', {'class': d.labels[i] > 0 ? 'pla-pos' : 'pla-neg', cx: sx(px[i]),
        cy: sy(py[i]), r: 6, 'data-point': i + 1});
      const title = sv('title'); title.textContent = `point ${i + 1}, y = ${d.labels[i]}`;
      c.appendChild(title);
      svg.appendChild(c);
    });
    if (d.point) { focus.setAttribute('cx', sx(px[d.point - 1])); focus.setAttribute('cy', sy(py[d.point - 1])); focus.setAttribute('visibility', 'visible'); }

    function place(line, w) {
      const hide = () => { line.setAttribute('visibility', 'hidden'); line.side.setAttribute('visibility', 'hidden'); };
      if (!w) { hide(); return; }
      const a = w[0].f, b = dims >= 2 ? w[1].f : 0, c = bias ? w[w.length - 1].f : 0;
      let mx, my;
      if (dims === 1 || Math.abs(b) < 1e-300) {   // a vertical line x = -c/a
        if (Math.abs(a) < 1e-300) { hide(); return; }
        const x = -c / a;
        line.setAttribute('x1', sx(x)); line.setAttribute('x2', sx(x));
        line.setAttribute('y1', PAD / 2); line.setAttribute('y2', H - PAD / 2);
        mx = sx(x); my = H / 2;
      } else {
        const yAt = (x) => -(a * x + c) / b;
        line.setAttribute('x1', sx(x0)); line.setAttribute('y1', sy(yAt(x0)));
        line.setAttribute('x2', sx(x1)); line.setAttribute('y2', sy(yAt(x1)));
        const xm = (x0 + x1) / 2;
        mx = sx(xm); my = sy(yAt(xm));
      }
      // the positive side: along w, in screen units (the y axis points down)
      const ux = a * (W - 2 * PAD) / (x1 - x0), uy = -b * (H - 2 * PAD) / (y1 - y0);
      const n = Math.hypot(ux, uy) || 1;
      line.side.setAttribute('x1', mx); line.side.setAttribute('y1', my);
      line.side.setAttribute('x2', mx + 22 * ux / n); line.side.setAttribute('y2', my + 22 * uy / n);
      line.setAttribute('visibility', 'visible'); line.side.setAttribute('visibility', 'visible');
    }

    const T = d.trajectory, R = d.reference_trajectory;
    const steps = Math.max(T.length, R.length);
    const div = d.step === null || d.step === undefined ? T.length - 1 : d.step;
    const legend = el('p', {'class': 'pla-legend'});
    legend.appendChild(el('span', {'class': 'pla-l-impl'}, '\u2014 this implementation'));
    legend.appendChild(el('span', {'class': 'pla-l-ref'}, '- - the algorithm'));
    legend.appendChild(el('span', {}, '(the short stroke points to the side each calls +1)'));
    stepper.appendChild(legend);
    const buttons = el('div');
    const names = [['first', 'start'], ['prev', '\u25c0 previous'], ['next', 'next \u25b6'],
      ['divergence', 'the divergence'], ['end', 'the end']];
    const btn = {};
    for (const [key, label] of names) {
      btn[key] = el('button', {'type': 'button', 'data-step': key}, label);
      buttons.appendChild(btn[key]);
    }
    stepper.appendChild(buttons);
    const slider = el('input', {'type': 'range', min: 0, max: steps - 1, value: Math.min(div, steps - 1),
      'aria-label': 'step'});
    stepper.appendChild(slider);
    const status = el('p', {'class': 'pla-status', 'aria-live': 'polite'});
    stepper.appendChild(status);
    const table = el('table', {'class': 'pla-traj'});
    const head = el('tr');
    ['', 'this implementation' + (bias ? ' (w, b)' : ''), 'the algorithm' + (bias ? ' (w, b)' : '')].forEach((h) => head.appendChild(el('th', {}, h)));
    table.appendChild(head);
    const tr = el('tr'); const tdK = el('td'), tdI = el('td', {'data-w': 'implementation'}), tdR = el('td', {'data-w': 'algorithm'});
    tr.appendChild(tdK); tr.appendChild(tdI); tr.appendChild(tdR); table.appendChild(tr);
    stepper.appendChild(table);

    function show(k) {
      k = Math.max(0, Math.min(steps - 1, k));
      slider.value = k;
      const wi = T[Math.min(k, T.length - 1)], wr = R[Math.min(k, R.length - 1)];
      place(impl, wi); place(ref, wr);
      tdK.textContent = k === 0 ? 'start' : `after change ${k}`;
      tdI.textContent = vec(wi); tdR.textContent = vec(wr);
      const differs = vec(wi) !== vec(wr);
      tdI.classList.toggle('pla-differs', differs);
      status.textContent = `step ${k} of ${steps - 1}` + (k === div && d.step ? ' \u2014 the divergence' : '') +
        (differs ? ': the weights differ' : ': the same weights');
      root.dataset['k' + index] = String(k);
    }
    btn.first.onclick = () => show(0);
    btn.prev.onclick = () => show(Number(slider.value) - 1);
    btn.next.onclick = () => show(Number(slider.value) + 1);
    btn.divergence.onclick = () => show(div);
    btn.end.onclick = () => show(steps - 1);
    slider.oninput = () => show(Number(slider.value));
    show(Math.min(div, steps - 1));
  }

  if (data.command) root.appendChild(el('p', {'class': 'pla-note'}, 'made by: ' + data.command));
  if (!data.diagnoses.length) {
    root.appendChild(el('p', {}, 'No property failed with a counterexample: nothing to diagnose.'));
  }
  data.diagnoses.forEach((d, i) => root.appendChild(section(d, i)));
  root.dataset.status = 'ready';
})();
