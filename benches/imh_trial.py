#!/usr/bin/env python3
"""The numpy trial behind docs/reference/methods.md's sentence on independence Metropolis-Hastings
(issue 32): IMH whose proposal is a multivariate Student-t (nu degrees of freedom) around the
Laplace mode with the Laplace covariance times `infl`, on Pima and breast_cancer (80 % of the
rows, standardised, intercept, lambda = 1), 4 chains x 2,000 kept draws after 1,000. Prints per
(nu, infl): the acceptance rate, the worst weight's bulk ESS per draw, the largest R-hat and
the Pareto k-hat of the proposal's importance ratios (ArviZ). Needs numpy, scipy and arviz
(benches/requirements.txt):  python benches/imh_trial.py datasets/pima.csv datasets/breast_cancer.csv
"""
import sys

import arviz as az
import numpy as np
from scipy.special import gammaln, log_expit
rng = np.random.default_rng(1)
def design(path):
    import csv
    rows = list(csv.reader(open(path)))
    h = rows[0]; a = np.array(rows[1:], float)
    yi = h.index('y'); y = a[:, yi]; X = np.delete(a, yi, 1)
    idx = rng.permutation(len(y)); tr = idx[:int(np.ceil(0.8*len(y)))]
    X, y = X[tr], y[tr]
    X = (X - X.mean(0)) / X.std(0, ddof=1)
    return np.hstack([np.ones((len(y),1)), X]), y
def logp(W, X, y, lam):  # W: S x D
    A = W @ X.T
    return (y*log_expit(A) + (1-y)*log_expit(-A)).sum(1) - 0.5*lam*(W*W).sum(1)
def laplace(X, y, lam):
    w = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1/(1+np.exp(-X@w)); g = X.T@(p-y) + lam*w
        H = (X*(p*(1-p))[:,None]).T@X + lam*np.eye(len(w))
        w -= np.linalg.solve(H, g)
    return w, np.linalg.inv(H)
def imh(X, y, lam, nu, infl, chains=4, burn=1000, draws=2000):
    m, S = laplace(X, y, lam); d = len(m)
    L = np.linalg.cholesky(infl*S)
    out = []; acc = 0; allr = []
    for c in range(chains):
        n = burn + draws
        z = rng.standard_normal((n, d))
        if nu == np.inf: t = np.ones(n); 
        else: t = np.sqrt(nu / rng.chisquare(nu, n))
        W = m + (z*t[:,None]) @ L.T
        zz = (z*z).sum(1)*t*t
        logq = -0.5*zz if nu == np.inf else -0.5*(nu+d)*np.log1p(zz/nu)
        lr = logp(W, X, y, lam) - logq
        allr.append(lr)
        cur = None; cl = -np.inf; kept = []
        u = np.log(rng.uniform(size=n))
        for s in range(n):
            if u[s] < lr[s] - cl:
                cur = W[s]; cl = lr[s]
                if s >= burn: acc += 1
            if s >= burn: kept.append(cur)
        out.append(kept)
    arr = np.array(out)
    ess = az.ess(az.convert_to_dataset(arr), method='bulk')['x'].values
    rh = az.rhat(az.convert_to_dataset(arr))['x'].values
    allr = np.concatenate(allr); 
    try:
        k = az.psislw(allr - allr.max())[1]
    except Exception as e: k = None
    return acc/(chains*draws), ess.min()/(chains*draws), rh.max(), k
for path in sys.argv[1:]:
    X, y = design(path)
    print(path, X.shape)
    for nu, infl in [(5,1.2),(10,1.2),(30,1.0),(30,1.2),(np.inf,1.0),(10,1.0)]:
        print(nu, infl, imh(X, y, 1.0, nu, infl))
