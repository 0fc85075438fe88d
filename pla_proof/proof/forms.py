"""GENERATED from pla_proof/proof/statements.py -- do not edit.

The run-time lemmas without SymPy: for each, its title, kind, description and when
the monitor evaluates it, and per margin form (strict False/True) its statement as
``(lhs, op, rhs, text)`` trees (:func:`pla_proof.proof.statements.tree`).
Regenerate: see :func:`pla_proof.proof.statements.forms_source`.
"""

from typing import Any

RUNTIME_IDS = ('DEF_TRIGGER', 'A1_j', 'A2_j', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'T')
END_IDS = ('SEP',)

LEMMAS: dict[str, dict[Any, Any]] = {
    'DEF_TRIGGER': {
        'title': 'update trigger',
        'kind': 'definition',
        'text': 'the algorithm updates on point j only if y_j (w_k . x_j) <= 0',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 't'), '<=', ('num', 0, 1), 't <= 0'),
        True: (('sym', 't'), '<=', ('num', 0, 1), 't <= 0'),
    },
    'A1_j': {
        'title': 'margin assumption at the picked point',
        'kind': 'assumption',
        'text': "y_j (u . x_j) >= gamma (Kalyanakrishnan's note: > gamma)",
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'yux'), '>=', ('sym', 'g'), 'yux >= g'),
        True: (('sym', 'yux'), '>', ('sym', 'g'), 'yux > g'),
    },
    'A2_j': {
        'title': 'radius assumption at the picked point',
        'kind': 'assumption',
        'text': '|x_j|^2 <= R^2',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'xx'), '<=', ('sym', 'R2'), 'xx <= R2'),
        True: (('sym', 'xx'), '<=', ('sym', 'R2'), 'xx <= R2'),
    },
    'L1': {
        'title': 'progress identity',
        'kind': 'identity',
        'text': '(w + y x) . u = w . u + y (x . u)',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'pu1'), '==', ('add', ('sym', 'pu'), ('sym', 'yux')), 'Eq(pu1, pu + yux)'),
        True: (('sym', 'pu1'), '==', ('add', ('sym', 'pu'), ('sym', 'yux')), 'Eq(pu1, pu + yux)'),
    },
    'L2': {
        'title': 'progress inequality',
        'kind': 'implication',
        'text': 'u . w_{k+1} - u . w_k >= gamma',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('add', ('sym', 'pu1'), ('mul', ('num', -1, 1), ('sym', 'pu'))), '>=', ('sym', 'g'), '-pu + pu1 >= g'),
        True: (('add', ('sym', 'pu1'), ('mul', ('num', -1, 1), ('sym', 'pu'))), '>', ('sym', 'g'), '-pu + pu1 > g'),
    },
    'L3': {
        'title': 'P_k: progress after k updates',
        'kind': 'implication',
        'text': 'u . w_{k+1} >= k gamma (by induction on k)',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'pu1'), '>=', ('mul', ('sym', 'g'), ('sym', 'k')), 'pu1 >= g*k'),
        True: (('sym', 'pu1'), '>', ('mul', ('sym', 'g'), ('sym', 'k')), 'pu1 > g*k'),
    },
    'L4': {
        'title': 'Cauchy-Schwarz (homogeneous, squared)',
        'kind': 'lemma',
        'text': '(u . w)^2 <= |u|^2 |w|^2',
        'source': "standard; proved for every d by induction on d (Lagrange's step)",
        'at': 'update',
        False: (('pow', ('sym', 'pu1'), 2), '<=', ('mul', ('sym', 'n1'), ('sym', 'uu')), 'pu1**2 <= n1*uu'),
        True: (('pow', ('sym', 'pu1'), 2), '<=', ('mul', ('sym', 'n1'), ('sym', 'uu')), 'pu1**2 <= n1*uu'),
    },
    'L5': {
        'title': 'norm expansion',
        'kind': 'identity',
        'text': '|w + y x|^2 = |w|^2 + 2 y (w . x) + y^2 |x|^2, y^2 = 1',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'n1'), '==', ('add', ('sym', 'n0'), ('sym', 'xx'), ('mul', ('num', 2, 1), ('sym', 't'))), 'Eq(n1, n0 + 2*t + xx)'),
        True: (('sym', 'n1'), '==', ('add', ('sym', 'n0'), ('sym', 'xx'), ('mul', ('num', 2, 1), ('sym', 't'))), 'Eq(n1, n0 + 2*t + xx)'),
    },
    'L6': {
        'title': 'growth inequality',
        'kind': 'implication',
        'text': '|w_{k+1}|^2 - |w_k|^2 <= R^2',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('add', ('sym', 'n1'), ('mul', ('num', -1, 1), ('sym', 'n0'))), '<=', ('sym', 'R2'), '-n0 + n1 <= R2'),
        True: (('add', ('sym', 'n1'), ('mul', ('num', -1, 1), ('sym', 'n0'))), '<=', ('sym', 'R2'), '-n0 + n1 <= R2'),
    },
    'L7': {
        'title': 'Q_k: growth after k updates',
        'kind': 'implication',
        'text': '|w_{k+1}|^2 <= k R^2 (by induction on k)',
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('sym', 'n1'), '<=', ('mul', ('sym', 'R2'), ('sym', 'k')), 'n1 <= R2*k'),
        True: (('sym', 'n1'), '<=', ('mul', ('sym', 'R2'), ('sym', 'k')), 'n1 <= R2*k'),
    },
    'T': {
        'title': 'convergence bound',
        'kind': 'theorem',
        'text': "k <= R^2/gamma^2 (Kalyanakrishnan's note, strict margin: k < R^2/gamma^2)",
        'source': "Kalyanakrishnan's note",
        'at': 'update',
        False: (('mul', ('sym', 'k'), ('pow', ('sym', 'g'), 2)), '<=', ('mul', ('sym', 'R2'), ('sym', 'uu')), 'g**2*k <= R2*uu'),
        True: (('mul', ('sym', 'k'), ('pow', ('sym', 'g'), 2)), '<', ('mul', ('sym', 'R2'), ('sym', 'uu')), 'g**2*k < R2*uu'),
    },
    'SEP': {
        'title': 'the returned w separates',
        'kind': 'definition',
        'text': 'when no i has y_i (w . x_i) <= 0 the loop stops: min_i y_i (w . x_i) > 0',
        'source': "Kalyanakrishnan's note",
        'at': 'end',
        False: (('sym', 'm'), '>', ('num', 0, 1), 'm > 0'),
        True: (('sym', 'm'), '>', ('num', 0, 1), 'm > 0'),
    },
}
