# SPDX-License-Identifier: BSD-3-Clause
"""strouhal.py FORCES.CSV [--periods N] [--boundary NAME] [--D D] [--U U]
[--rho RHO]: the Strouhal number St = f D / U of vortex shedding from
the lift history that frx's fluidforce extension wrote (columns step, t,
<NAME>_fx, <NAME>_fy, and for a viscous solver <NAME>_vx, <NAME>_vy;
NAME defaults to cylinder).

The lift coefficient CL = 2 Fy / (rho U^2 D) is cut at its upward
crossings of its mean (times found by linear interpolation between
samples); f is N periods over the time the last N of them span
(N = --periods, default 8). The run is refused (exit status 1, saying
why) where it has not settled: fewer than N + 1 upward crossings, or,
over the last N periods, periods that differ by more than 1% or
lift peak-to-peak amplitudes that differ by more than 2% (a wake still
growing or still changing its frequency). Otherwise it prints St, the
period, the lift and drag coefficients' mean and amplitude (half the
peak-to-peak, per period, averaged) over those periods, and the spread
of periods and amplitudes. The forces are the pressure's plus, where
the CSV has them, the viscous ones (CD is then split into its pressure
and friction parts too). python3 alone."""
import csv
import sys


def usage(msg=None):
    if msg:
        sys.stderr.write('strouhal.py: %s\n' % msg)
    sys.exit('usage: strouhal.py FORCES.CSV [--periods N] [--boundary NAME]'
             ' [--D D] [--U U] [--rho RHO]')


def parse(argv):
    opts = {'periods': 8, 'boundary': 'cylinder', 'D': 1.0, 'U': 1.0,
            'rho': 1.0}
    files = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith('--'):
            key = a[2:]
            if key not in opts or i + 1 >= len(argv):
                usage('unknown option or no value: %s' % a)
            try:
                opts[key] = type(opts[key])(argv[i + 1])
            except ValueError:
                usage('bad value for %s: %s' % (a, argv[i + 1]))
            i += 2
        else:
            files.append(a)
            i += 1
    if len(files) != 1:
        usage()
    if opts['periods'] < 2:
        usage('--periods must be at least 2')
    return files[0], opts


def read(path, boundary):
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    if not rows:
        sys.exit('strouhal.py: %s is empty' % path)
    head = rows[0]
    fx, fy = boundary + '_fx', boundary + '_fy'
    for c in ('t', fx, fy):
        if c not in head:
            sys.exit('strouhal.py: %s has no column %s (it has %s)'
                     % (path, c, ', '.join(head)))
    it, ix, iy = head.index('t'), head.index(fx), head.index(fy)
    vx, vy = boundary + '_vx', boundary + '_vy'
    jx = head.index(vx) if vx in head else None
    jy = head.index(vy) if vy in head else None
    t, x, y, px = [], [], [], []
    for r in rows[1:]:
        t.append(float(r[it]))
        px.append(float(r[ix]))
        x.append(px[-1] + (float(r[jx]) if jx is not None else 0.0))
        y.append(float(r[iy]) + (float(r[jy]) if jy is not None else 0.0))
    return t, x, y, (px if jx is not None else None)


def upward_crossings(t, s, level):
    out = []
    for k in range(1, len(t)):
        a, b = s[k - 1] - level, s[k] - level
        if a < 0 <= b:
            out.append(t[k - 1] + (t[k] - t[k - 1]) * (-a) / (b - a))
    return out


def window(t, s, t0, t1):
    return [v for tt, v in zip(t, s) if t0 <= tt <= t1]


def main(argv):
    path, o = parse(argv)
    t, fx, fy, fpx = read(path, o['boundary'])
    q = 0.5 * o['rho'] * o['U'] ** 2 * o['D']
    cl = [v / q for v in fy]
    cd = [v / q for v in fx]
    cdp = [v / q for v in fpx] if fpx is not None else None
    n = o['periods']
    # The mean of CL over the last few periods (CL's is near 0 by
    # symmetry, but not exactly): first about 0, then about the mean of
    # the window that the crossings about 0 give.
    level = 0.0
    for _ in range(2):
        ups = upward_crossings(t, cl, level)
        if len(ups) < n + 1:
            sys.exit('strouhal.py: not settled: %d upward crossings of the '
                     'lift, %d periods needed (run longer, or fewer '
                     '--periods)' % (len(ups), n))
        ups = ups[-(n + 1):]
        w = window(t, cl, ups[0], ups[-1])
        level = sum(w) / len(w)
    periods = [b - a for a, b in zip(ups, ups[1:])]
    amps, dmeans, damps, pmeans = [], [], [], []
    for a, b in zip(ups, ups[1:]):
        w = window(t, cl, a, b)
        amps.append((max(w) - min(w)) / 2)
        d = window(t, cd, a, b)
        dmeans.append(sum(d) / len(d))
        damps.append((max(d) - min(d)) / 2)
        if cdp is not None:
            d = window(t, cdp, a, b)
            pmeans.append(sum(d) / len(d))
    tmean = (ups[-1] - ups[0]) / n
    pspread = (max(periods) - min(periods)) / tmean
    aspread = (max(amps) - min(amps)) / (sum(amps) / n)
    st = o['D'] / (tmean * o['U'])
    print('window:        t = %.4f to %.4f, %d periods, %d samples'
          % (ups[0], ups[-1], n, len(window(t, cl, ups[0], ups[-1]))))
    print('period:        %.5f (spread %.2e of it)' % (tmean, pspread))
    print('CL amplitude:  %.5f (spread %.2e), mean %.2e'
          % (sum(amps) / n, aspread, level))
    if cdp is None:
        print('CD (pressure): mean %.5f, amplitude %.5f'
              % (sum(dmeans) / n, sum(damps) / n))
    else:
        print('CD:            mean %.5f, amplitude %.5f (pressure %.5f, '
              'friction %.5f)' % (sum(dmeans) / n, sum(damps) / n,
                                  sum(pmeans) / n,
                                  (sum(dmeans) - sum(pmeans)) / n))
    print('St = f D / U:  %.5f' % st)
    bad = []
    if pspread > 0.01:
        bad.append('the periods differ by %.2g%% (over 1%%)' % (100 * pspread))
    if aspread > 0.02:
        bad.append('the lift amplitudes differ by %.2g%% (over 2%%)'
                   % (100 * aspread))
    if bad:
        sys.exit('strouhal.py: not settled: %s; run longer' % '; '.join(bad))


if __name__ == '__main__':
    main(sys.argv)
