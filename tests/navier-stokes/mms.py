#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A manufactured solution of the compressible Navier-Stokes equations
for the navier-stokes solver's convergence tests (python3 + sympy; the
tests read only the files this writes, mms-2d.yaml and mms-3d.yaml).

    python3 mms.py            write mms-2d.yaml and mms-3d.yaml beside it
    python3 mms.py --check    check the files as committed: see check()
    python3 mms.py --stdout   print them instead of writing them

The equations (PyFR 1.15's, constant mu), u = (rho, rho v, E):

    du/dt + div(F(u) + G(u, grad u)) = s,   p = (gamma - 1)(E - rho|v|^2/2)
    F = (rho v, rho v v + p I, (E + p) v)
    G = (0, -tau, -tau.v - mu gamma/Pr grad e),   e = p/((gamma - 1) rho)
    tau = mu (grad v + grad v^T - 2/3 div v I)

The solution is steady: the sources hold it, so no time-integration
error enters the orders (RK4 with dt in proportion to h would cap them
at 4 < p + 0.8 for p = 4 in an unsteady one), the sources need no t,
and a test may run to any time (or watch du/dt fall). It is periodic
on [0, 2]^d (period 2 along each axis). Each field is a mean plus one
plane wave sin or cos(pi*(k.x)), each field its own wave vector k, whose
components differ from one another (so along any two axes each field's
derivatives differ: a derivative taken along the wrong axis changes
the answer), none 0 (every field varies along every axis):

    2-D   rho = r0 + r1 sin(pi (x + 2y))     u = u0 + u1 sin(pi (x - y))
          v   = v0 + v1 cos(pi (2x + y))     T = T0 + T1 cos(pi (x - 2y))
    3-D   rho = r0 + r1 sin(pi (x + 2y - z))   u = u0 + u1 sin(pi (2x - y + z))
          v   = v0 + v1 cos(pi (x - y + 2z))   w = w0 + w1 sin(pi (2y + z - x))
          T   = T0 + T1 cos(pi (2x + y - z))

with T = p/rho (p = rho T, e = T/(gamma - 1)): temperature varies along
every axis (heat conduction) and apart from rho (grad rho x grad p !=
0), grad v is not symmetric, div v != 0. |k| is sqrt(5) pi (sqrt(2) pi
for u) in 2-D and sqrt(6) pi in 3-D. The constants (CASES below):
Mach number 0 to 0.5, rho 0.8 to 1.2, p >= 0.64, gamma = 1.4, Pr =
0.72, mu = 0.1: the viscous stresses are 0.5 to 1.1 times the inviscid
flux's divergence in the momentum equations, heat conduction about
equal to it in the energy equation (--check prints the sizes).

Writing the sources in rho, v and T rather than p keeps them free of
division. The means, amplitudes, gamma, mu and Pr stay named constants
in the sources, so a case may change any of them without regenerating
(mu = 0: Euler's sources). Two helpers shorten them: gg = gamma/(gamma
- 1) (E + p = rho (gg T + |v|^2/2)) and kap = mu gamma/(Pr (gamma - 1))
(the heat flux is -kap grad T).

Each source is derived from the equations in terms of the fields and
their derivatives (the chain rule on sympy functions), the derivatives
then replaced by the plane waves' (a number times the wave's sin or
cos), and the polynomial that results in the fields' texts, the waves'
sin and cos and the constants written by a greedy multivariate Horner
scheme (factor out the variable whose text saves the most characters,
recursively; the shortest of that and TRIES runs with the costs
perturbed, seeded): no common subexpressions (frx's expressions have
no variables), no division.

--check reads the YAML files (a reader of what this script writes, not
a YAML library), turns each expression back into Python (^ -> **, the
constants substituted in order) and, at random points, compares the
sources with the residual du/dt + div(F + G) of the equations written
anew from the exact primitive fields (rho, u, v, (w), p) with sympy
(gamma, mu, Pr taken from the constants), for mu as given and for
mu = 0 (the Euler equations); it also checks that every field (and T)
varies along every axis and differently along each, that grad v is not
symmetric and div v not 0, that ics = exact at t = 0, and rho, p and
the Mach number on a grid, and prints the size of the inviscid,
viscous and heat-flux parts of each source. It needs sympy; the tests
need only the files.
"""

import itertools
import math
import os
import random
import re
import sys

import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
X3 = sp.symbols('x y z', real=True)
T_ = sp.Symbol('t', real=True)

# ---------------------------------------------------------------------------
# The cases: constants (in order: each may use those above it) and fields.
# A field is (mean, amplitude, [(sin | cos, k)]): mean + amplitude times
# the product of the factors sin or cos(pi*(k.x)) (here one factor each).

CASES = {
    2: dict(
        constants=[('gamma', '1.4'), ('Pr', '0.72'), ('mu', '0.1'),
                   ('r0', '1'), ('r1', '0.2'),
                   ('u0', '0.2'), ('u1', '0.2'),
                   ('v0', '0.15'), ('v1', '0.2'),
                   ('T0', '1'), ('T1', '0.2')],
        fields=dict(rho=('r0', 'r1', [('sin', (1, 2))]),
                    u=('u0', 'u1', [('sin', (1, -1))]),
                    v=('v0', 'v1', [('cos', (2, 1))]),
                    T=('T0', 'T1', [('cos', (1, -2))]))),
    3: dict(
        constants=[('gamma', '1.4'), ('Pr', '0.72'), ('mu', '0.1'),
                   ('r0', '1'), ('r1', '0.2'),
                   ('u0', '0.2'), ('u1', '0.15'),
                   ('v0', '0.15'), ('v1', '0.15'),
                   ('w0', '0.1'), ('w1', '0.15'),
                   ('T0', '1'), ('T1', '0.2')],
        fields=dict(rho=('r0', 'r1', [('sin', (1, 2, -1))]),
                    u=('u0', 'u1', [('sin', (2, -1, 1))]),
                    v=('v0', 'v1', [('cos', (1, -1, 2))]),
                    w=('w0', 'w1', [('sin', (-1, 2, 1))]),
                    T=('T0', 'T1', [('cos', (2, 1, -1))]))),
}
HELPERS = [('gg', 'gamma/(gamma - 1)'), ('kap', 'mu*gamma/(Pr*(gamma - 1))')]
VELS = ['u', 'v', 'w']
TRIES = 200


def phase_text(d):
    """pi*x, pi*(x-y+2*z): from the first axis whose sign is +."""
    names = 'xyz'
    k = next(i for i in range(len(d)) if d[i] > 0)
    s = ''
    for i in list(range(k, len(d))) + list(range(k)):
        if d[i]:
            s += ('' if not s else '+' if d[i] > 0 else '-')
            s += names[i] if abs(d[i]) == 1 else '%d*%s' % (abs(d[i]), names[i])
    return 'pi*%s' % s if re.fullmatch('[xyz]', s) else 'pi*(%s)' % s


def field_text(f, sep=' + '):
    """r0 + r1*sin(pi*(x+y))"""
    mean, amp, factors = f
    return '%s%s%s*%s' % (mean, sep, amp, '*'.join(
        '%s(%s)' % (g, phase_text(d)) for g, d in factors))


# ---------------------------------------------------------------------------
# The equations, for any fields (sympy expressions) rho, vel, T = p/rho.

def ns_sources(X, rho, vel, T, mu, gg, kap):
    """div(F + G) (steady: du/dt = 0), in rho, v and T (p = rho T, E + p
    = rho (gg T + |v|^2/2), heat flux -kap grad T)."""
    d = len(X)
    p = rho * T
    K = sum(v**2 for v in vel) / 2
    H = rho * (gg * T + K)
    divv = sum(sp.diff(vel[i], X[i]) for i in range(d))
    tau = [[mu * (sp.diff(vel[i], X[j]) + sp.diff(vel[j], X[i]))
            - (sp.Rational(2, 3) * mu * divv if i == j else 0)
            for j in range(d)] for i in range(d)]
    F = []
    for j in range(d):
        f = [rho * vel[j]]
        f += [rho * vel[i] * vel[j] + (p if i == j else 0) - tau[i][j]
              for i in range(d)]
        f.append(vel[j] * H - sum(tau[i][j] * vel[i] for i in range(d))
                 - kap * sp.diff(T, X[j]))
        F.append(f)
    return [sum(sp.diff(F[j][k], X[j]) for j in range(d)) for k in range(d + 2)]


# ---------------------------------------------------------------------------
# Writing a polynomial compactly.

def horner(terms, cost):
    """Greedy multivariate Horner scheme of terms {exponents: coefficient}:
    ('sum', [(coefficient, exponents)]) or ('fact', i, inner, rest): the
    variable i times inner plus rest, i the variable whose text, factored
    out, saves the most (cost[i] a use of it)."""
    best, bestsave = None, 0
    for i in range(len(cost)):
        n = sum(1 for m in terms if m[i] > 0)
        save = (n - 1) * cost[i]
        if n >= 2 and save > bestsave:
            best, bestsave = i, save
    if best is None:
        return ('sum', [(c, m) for m, c in sorted(terms.items(), reverse=True)])
    inner, rest = {}, {}
    for m, c in terms.items():
        if m[best] > 0:
            inner[m[:best] + (m[best] - 1,) + m[best + 1:]] = c
        else:
            rest[m] = c
    return ('fact', best, horner(inner, cost), horner(rest, cost) if rest else None)


def is_atomic(s):
    """s needs no parentheses as a factor or a base of ^: a name, a
    number, or name(...) or (...) whose first '(' closes at the end."""
    if re.fullmatch(r'[A-Za-z_][A-Za-z_0-9]*|[0-9.]+', s):
        return True
    m = re.match(r'[A-Za-z_0-9]*\(', s)
    if not m:
        return False
    depth = 0
    for k in range(m.end() - 1, len(s)):
        if s[k] == '(':
            depth += 1
        elif s[k] == ')':
            depth -= 1
            if depth == 0:
                return k == len(s) - 1
    return False


def rgcd(cs):
    """The greatest rational dividing each of cs (positive)."""
    num, den = 0, 1
    for c in cs:
        num = math.gcd(num, abs(c.p))
        den = den * c.q // math.gcd(den, c.q)
    return sp.Rational(num, den)


def render(node, texts):
    """The sum node as [(coefficient, [factor texts])]."""
    if node[0] == 'sum':
        return [(c, [texts[i] for i, k in enumerate(m) for _ in range(k)])
                for c, m in node[1]]
    _, i, inner, rest = node
    ins = render(inner, texts)
    if len(ins) == 1:
        c, fs = ins[0]
        item = (c, [texts[i]] + fs)
    else:
        # -v*(a - b) rather than v*(-a + b); a common number taken out
        # where that is shorter
        s = sp.Integer(-1 if ins[0][0] < 0 else 1)
        best = None
        for g in (s, s * rgcd([c for c, _ in ins])):
            it = (g, [texts[i], '(%s)' % join([(c / g, fs) for c, fs in ins])])
            if best is None or len(term_text(*it)) < len(term_text(*best)):
                best = it
        item = best
    return [item] + (render(rest, texts) if rest is not None else [])


FIELD = re.compile(r'\(([A-Za-z_0-9]+)\+([A-Za-z_0-9]+\*[a-z]+\([^()]*\([^()]*\)\))\)')


def term_text(c, fs):
    """|c| times the factors: number*factors/number, a factor that
    repeats as ^."""
    out, seen = [], {}
    for f in fs:
        seen[f] = seen.get(f, 0) + 1
    for f, k in seen.items():
        base = f if is_atomic(f) else '(%s)' % f
        out.append(base if k == 1 else '%s^%d' % (base, k))
    c = abs(c)
    if c.p != 1 or not out:
        out.insert(0, str(c.p))
    return '*'.join(out) + ('/%d' % c.q if c.q != 1 else '')


def join(items):
    """The sum's text; a field alone in it ((m + a*sin(...)) times +-1)
    is written out without its parentheses."""
    items = sorted(items, key=lambda it: bool(it[0] < 0))  # a + first
    s = ''
    for c, fs in items:
        m = FIELD.fullmatch(fs[0]) if len(fs) == 1 and abs(c) == 1 else None
        if m:
            t, t2 = m.group(1), m.group(2)
        else:
            t, t2 = term_text(c, fs), None
        if not s:
            s = ('-' if c < 0 else '') + t
        else:
            s += (' - ' if c < 0 else ' + ') + t
        if t2:
            s += (' - ' if c < 0 else ' + ') + t2
    return s


def write_poly(expr, gens, texts):
    """expr, a polynomial in gens, as frx text (gens[i] written texts[i])."""
    p = sp.Poly(sp.expand(expr), *gens)
    terms = {m: sp.Rational(c) for m, c in p.terms()}
    if not terms:
        return '0'
    cost = [len(s if is_atomic(s) else '(%s)' % s) + 1 for s in texts]
    best = join(render(horner(terms, cost), texts))
    # the greedy choice, and TRIES others with each variable's cost
    # perturbed (seeded: the same text each run): the shortest
    for k in range(TRIES):
        rnd = random.Random(k)
        c = [q * rnd.uniform(0.6, 1.4) for q in cost]
        s = join(render(horner(terms, c), texts))
        if len(s) < len(best):
            best = s
    return best


# ---------------------------------------------------------------------------
# The sources of a case.

def derive(dim, case=None):
    """The sources of the case (CASES[dim]) as frx text, the conserved
    variables' order."""
    case = case or CASES[dim]
    X = X3[:dim]
    names = ['rho'] + VELS[:dim] + ['T']
    fields = case['fields']
    consts = {n: sp.Symbol('c_' + n) for n, _ in case['constants'] + HELPERS}
    PI = sp.Symbol('c_pi')
    # the waves' factors, sin or cos of pi*(d.x), as symbols
    atoms = {}
    for n in names:
        for fn, d in fields[n][2]:
            for g in ('sin', 'cos'):
                if (g, d) not in atoms:
                    atoms[(g, d)] = sp.Symbol('A%d' % len(atoms))

    def D(e, i):
        """d/dx_i of a polynomial in the atoms."""
        out = 0
        for (g, d), a in atoms.items():
            da = PI * d[i] * (atoms[('cos', d)] if g == 'sin' else -atoms[('sin', d)])
            out += sp.diff(e, a) * da
        return sp.expand(out)

    wave = {n: consts[fields[n][1]] * sp.Mul(*[atoms[f] for f in fields[n][2]])
            for n in names}
    fn = {n: sp.Function('F_' + n)(*X) for n in names}
    vals = {n: sp.Symbol('V_' + n) for n in names}
    src = ns_sources(X, fn['rho'], [fn[v] for v in VELS[:dim]], fn['T'],
                     consts['mu'], consts['gg'], consts['kap'])
    rep1, rep2 = {}, {}
    for n in names:
        for i in range(dim):
            rep1[sp.Derivative(fn[n], X[i])] = D(wave[n], i)
            for j in range(i, dim):
                k = sp.Derivative(fn[n], X[i], X[j]) if i != j else \
                    sp.Derivative(fn[n], (X[i], 2))
                rep2[k] = D(D(wave[n], i), j)
    out = []
    for s in src:
        s = sp.expand(s.doit())
        s = s.subs(rep2).subs(rep1).subs({fn[n]: vals[n] for n in names})
        s = sp.expand(s)
        assert not s.has(sp.Derivative) and not (s.free_symbols & set(X)), s
        out.append(s)

    # the variables' texts
    gens, texts = [], []
    for n in names:
        gens.append(vals[n])
        texts.append('(%s)' % field_text(fields[n], '+'))
    for (g, d), a in atoms.items():
        gens.append(a)
        texts.append('%s(%s)' % (g, phase_text(d)))
    for n, sym in consts.items():
        gens.append(sym)
        texts.append(n)
    gens.append(PI)
    texts.append('pi')

    # each source in the fields' texts, or with the fields written out in
    # their waves: the shorter
    written = {vals[n]: consts[fields[n][0]] + wave[n] for n in names}
    results = []
    for s in out:
        a = write_poly(s, gens, texts)
        b = write_poly(sp.expand(s.subs(written)), gens, texts)
        results.append(a if len(a) <= len(b) else b)
    return results


# ---------------------------------------------------------------------------
# The YAML files.

def yaml_text(dim):
    case = CASES[dim]
    srcs = derive(dim)
    fields = case['fields']
    cvars = ['rho', 'rhou', 'rhov', 'rhow'][:dim + 1] + ['E']
    prim = ['rho'] + VELS[:dim]
    rho_t = field_text(fields['rho'])
    T_t = field_text(fields['T'])
    ftexts = {n: field_text(fields[n]) for n in prim}
    ftexts['p'] = '(%s)*(%s)' % (rho_t, T_t)
    L = ['# The manufactured solution of the navier-stokes convergence tests, %d-D:' % dim,
         '# steady (the sources hold it), periodic on [0, 2]^%d (period 2 along each' % dim,
         '# axis), T = p/rho:']
    L += ['#   %s = %s' % (n, field_text(fields[n])) for n in prim + ['T']]
    L += ['# The keys of a case\'s solver: section, indented for it (constants, ics,',
          '# exact, sources); with mu: 0 the same sources are the Euler equations\'.',
          '# Written by mms.py (python3 + sympy), not by hand; from the top:',
          '#   python3 tests/navier-stokes/mms.py           # mms-2d.yaml, mms-3d.yaml',
          '#   python3 tests/navier-stokes/mms.py --check   # checks them (sympy)']
    L.append('  constants:')
    for n, v in case['constants'] + HELPERS:
        L.append('    %s: %s' % (n, v))
    for block in ('ics', 'exact'):
        L.append('  %s:' % block)
        for n in prim + ['p']:
            L.append('    %s: %s' % (n, ftexts[n]))
    L.append('  sources:')
    for n, s in zip(cvars, srcs):
        L.append('    %s:' % n)
        L += ['      ' + ln for ln in wrap(s, 72)]
    return '\n'.join(L) + '\n'


def wrap(s, width):
    """Lines of at most width characters, broken after a ' + ' or ' - '
    where the terms allow, else after a '*' (a line never starts with an
    operator; frx takes line breaks between any two tokens)."""
    tokens = re.split(r' ([+-]) ', s)
    pieces = [tokens[k] + (' ' + tokens[k + 1] if k + 1 < len(tokens) else '')
              for k in range(0, len(tokens), 2)]
    out, line = [], ''
    for pc in pieces:
        if line and len(line) + 1 + len(pc) > width:
            out.append(line)
            line = pc
        else:
            line = line + ' ' + pc if line else pc
        while len(line) > width:
            cut = line.rfind('*', 0, width)
            if cut <= 0:
                break
            out.append(line[:cut + 1])
            line = line[cut + 1:]
    out.append(line)
    return out


# ---------------------------------------------------------------------------
# The check.

def read_yaml(path):
    """The blocks of a file this script wrote: {'constants': [(name,
    text)], 'ics': {...}, 'exact': {...}, 'sources': {...}}; a value may
    go on over more deeply indented lines (joined with a space)."""
    out, block, key = {}, None, None
    for ln in open(path):
        if not ln.strip() or ln.lstrip().startswith('#'):
            continue
        ind = len(ln) - len(ln.lstrip(' '))
        body = ln.strip()
        if ind == 2:
            block = body.rstrip(':')
            out[block] = []
        elif ind == 4:
            key, _, val = body.partition(':')
            out[block].append([key.strip(), val.strip()])
        elif ind > 4:
            out[block][-1][1] = (out[block][-1][1] + ' ' + body).strip()
        else:
            raise ValueError('%s: unexpected line %r' % (path, ln))
    for b in out:
        if b != 'constants':
            out[b] = dict(out[b])
    return out


def to_python(text):
    """An expression of frx as Python (math's functions): ^ is **."""
    if re.search(r'\^[^-+*/()]*\^', text):
        raise ValueError('a^b^c in %r' % text)
    return text.replace('^', '**')


MATH = {n: getattr(math, n) for n in ('sin', 'cos', 'exp', 'sqrt', 'log', 'pi')}


def constants_of(cs, mu=None):
    """The constants' values in double, in order (mu: replaced)."""
    vals = {}
    for n, text in cs:
        if n == 'mu' and mu is not None:
            text = repr(mu)
        vals[n] = float(eval(to_python(text), dict(MATH), dict(vals)))
    return vals


def residual_exprs(dim, exact, vals):
    """du/dt + div(F + G) written anew from the primitive fields (sympy),
    split into its inviscid, viscous-stress and heat-flux parts, the
    conserved variables' order."""
    X = X3[:dim]
    loc = {n: sp.Float(v, 40) for n, v in vals.items()}
    loc.update({'x': X3[0], 'y': X3[1], 'z': X3[2], 't': T_, 'pi': sp.pi,
                'sin': sp.sin, 'cos': sp.cos, 'exp': sp.exp})
    g, mu, Pr = loc['gamma'], loc['mu'], loc['Pr']
    prim = [sp.sympify(to_python(exact[n]), locals=loc)
            for n in ['rho'] + VELS[:dim] + ['p']]
    rho, vel, p = prim[0], prim[1:dim + 1], prim[dim + 1]
    # conserved variables, and what the flux takes from them
    E = p / (g - 1) + rho * sum(v * v for v in vel) / 2
    U = [rho] + [rho * v for v in vel] + [E]
    vs = [U[1 + i] / U[0] for i in range(dim)]
    ps = (g - 1) * (U[-1] - U[0] * sum(v * v for v in vs) / 2)
    e = U[-1] / U[0] - sum(v * v for v in vs) / 2  # c_v T
    gv = [[sp.diff(vs[i], X[j]) for j in range(dim)] for i in range(dim)]
    divv = sum(gv[i][i] for i in range(dim))
    tau = [[mu * (gv[i][j] + gv[j][i]) - (2 * mu * divv / 3 if i == j else 0)
            for j in range(dim)] for i in range(dim)]
    inv, visc, heat = [], [], []
    for k in range(dim + 2):
        fi = fv = fh = 0
        for j in range(dim):
            if k == 0:
                f = U[1 + j]
            elif k <= dim:
                f = U[k] * vs[j] + (ps if k - 1 == j else 0)
            else:
                f = (U[-1] + ps) * vs[j]
            gk = 0 if k == 0 else (-tau[k - 1][j] if k <= dim else
                                   -sum(tau[i][j] * vs[i] for i in range(dim)))
            hk = -mu * g / Pr * sp.diff(e, X[j]) if k == dim + 1 else 0
            fi += sp.diff(f, X[j])
            fv += sp.diff(gk, X[j])
            fh += sp.diff(hk, X[j])
        inv.append(fi + sp.diff(U[k], T_))
        visc.append(fv)
        heat.append(fh)
    return inv, visc, heat


def check(dim, path, npts=12, seed=1):
    """The residual of the equations minus the sources at random points,
    for mu as given and mu = 0; ics = exact at t = 0; rho, p > 0 and the
    Mach number on a grid. Returns the number of failures."""
    f = read_yaml(path)
    cvars = ['rho', 'rhou', 'rhov', 'rhow'][:dim + 1] + ['E']
    prim = ['rho'] + VELS[:dim] + ['p']
    bad = 0
    if sorted(f['sources']) != sorted(cvars) or \
            sorted(f['exact']) != sorted(prim) or sorted(f['ics']) != sorted(prim):
        print('%s: the blocks lack a variable' % path)
        return 1
    rnd = random.Random(seed)
    pts = [[rnd.uniform(0, 2) for _ in range(dim)] + [rnd.uniform(0, 1)]
           for _ in range(npts)]
    longest = max(len(s) for s in f['sources'].values())
    print('%s: sources of %s characters (longest %d)' % (
        os.path.basename(path),
        ', '.join('%s %d' % (n, len(f['sources'][n])) for n in cvars), longest))
    for mu in (None, 0.0):
        vals = constants_of(f['constants'], mu)
        inv, visc, heat = residual_exprs(dim, f['exact'], vals)
        srcs = [compile(to_python(f['sources'][n]), n, 'eval') for n in cvars]
        worst, scale = 0.0, 0.0
        parts = [[0.0, 0.0, 0.0] for _ in cvars]
        for pt in pts:
            env = dict(MATH, **vals)
            env.update(zip('xyz'[:dim], pt[:dim]))
            env['t'] = pt[-1]
            sub = {X3[i]: sp.Float(pt[i], 40) for i in range(dim)}
            sub[T_] = sp.Float(pt[-1], 40)
            for k in range(len(cvars)):
                a = [float(q.evalf(30, subs=sub)) for q in (inv[k], visc[k], heat[k])]
                s = eval(srcs[k], env)
                worst = max(worst, abs(sum(a) - s))
                scale = max(scale, abs(s))
                for m in range(3):
                    parts[k][m] += a[m] ** 2 / len(pts)
        rel = worst / scale
        ok = rel < 1e-13
        bad += not ok
        print('  mu = %s: max |du/dt + div(F + G) - sources| = %.2e (%.1e of the '
              'largest source, %.2e) at %d random points: %s' % (
                  'as given (%g)' % vals['mu'] if mu is None else '0 (Euler)',
                  worst, rel, scale, len(pts), 'ok' if ok else 'FAIL'))
        if mu is None:
            for k, n in enumerate(cvars):
                print('    %-4s rms over the points: inviscid %.3f, viscous stress '
                      '%.3f, heat flux %.3f' % ((n,) + tuple(math.sqrt(q) for q in parts[k])))
    # every field (and T = p/rho) varies along every axis, its
    # derivatives along two axes differ, grad v is not symmetric and
    # div v is not 0 (not identically: the largest over the points)
    vals = constants_of(f['constants'])
    loc = {n: sp.Float(v, 40) for n, v in vals.items()}
    loc.update({'x': X3[0], 'y': X3[1], 'z': X3[2], 't': T_, 'pi': sp.pi,
                'sin': sp.sin, 'cos': sp.cos})
    q = {n: sp.sympify(to_python(f['exact'][n]), locals=loc) for n in prim}
    q['T'] = q['p'] / q['rho']
    grads = {n: [sp.lambdify(X3 + (T_,), sp.diff(q[n], X3[i]), 'math')
                 for i in range(dim)] for n in q}
    at = [[[g(*(pt[:dim] + [0.0] * (3 - dim) + [pt[-1]])) for g in grads[n]]
           for pt in pts] for n in q]
    at = dict(zip(q, at))
    low = []
    for n in q:
        for i in range(dim):
            if max(abs(a[i]) for a in at[n]) < 1e-2:
                low.append('d%s/d%s = 0' % (n, 'xyz'[i]))
            for j in range(i + 1, dim):
                if max(abs(a[i] - a[j]) for a in at[n]) < 1e-2:
                    low.append('d%s/d%s = d%s/d%s' % (n, 'xyz'[i], n, 'xyz'[j]))
                vi, vj = VELS[i], VELS[j]
                if max(abs(a[j] - b[i]) for a, b in zip(at[vi], at[vj])) < 1e-2:
                    low.append('d%s/d%s = d%s/d%s' % (vi, 'xyz'[j], vj, 'xyz'[i]))
    low = sorted(set(low))
    if max(abs(sum(at[VELS[i]][k][i] for i in range(dim))) for k in range(len(pts))) < 1e-2:
        low.append('div v = 0')
    bad += bool(low)
    print('  every field and T = p/rho vary along every axis, differently along '
          'each, grad v != grad v^T, div v != 0: %s' % ('FAIL: ' + ', '.join(low) if low else 'ok'))
    # ics = exact at t = 0, positivity and the Mach number on a grid
    vals = constants_of(f['constants'])
    m = 64 if dim == 2 else 20
    lo = {'rho': 1e300, 'p': 1e300}
    mach = [1e300, 0.0]
    diff = 0.0
    for ijk in itertools.product(range(m), repeat=dim):
        env = dict(MATH, **vals)
        env.update(zip('xyz', [2.0 * i / m for i in ijk]))
        env['t'] = 0.0
        q = {n: eval(to_python(f['exact'][n]), env) for n in prim}
        qi = {n: eval(to_python(f['ics'][n]), env) for n in prim}
        diff = max(diff, max(abs(q[n] - qi[n]) for n in prim))
        lo['rho'] = min(lo['rho'], q['rho'])
        lo['p'] = min(lo['p'], q['p'])
        c = math.sqrt(vals['gamma'] * q['p'] / q['rho'])
        ma = math.sqrt(sum(q[v] ** 2 for v in VELS[:dim])) / c
        mach = [min(mach[0], ma), max(mach[1], ma)]
    ok = diff == 0 and lo['rho'] > 0.5 and lo['p'] > 0.3 and mach[1] < 0.55
    bad += not ok
    print('  on a %d^%d grid: ics - exact at t = 0 %.1e; rho >= %.3f, p >= %.3f, '
          'Mach %.3f to %.3f: %s' % (m, dim, diff, lo['rho'], lo['p'], mach[0],
                                   mach[1], 'ok' if ok else 'FAIL'))
    return bad


def main(argv):
    paths = {d: os.path.join(HERE, 'mms-%dd.yaml' % d) for d in (2, 3)}
    if argv[1:] == ['--check']:
        bad = sum(check(d, paths[d]) for d in (2, 3))
        print('mms.py --check: %s' % ('FAIL' if bad else 'ok'))
        return 1 if bad else 0
    if argv[1:] not in ([], ['--stdout']):
        print(__doc__)
        return 2
    for d in (2, 3):
        text = yaml_text(d)
        if argv[1:] == ['--stdout']:
            sys.stdout.write(text)
        else:
            with open(paths[d], 'w') as fp:
                fp.write(text)
            print('mms.py: wrote %s' % paths[d])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
