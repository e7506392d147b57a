#!/usr/bin/env python3
# sass_estimate.py BUILD_DIR: the error of the simulator's SASS instruction estimate
# (smsp__inst_executed.sum, docs/sim.md) where the exact count is known without a GPU: variants whose
# SASS is straight-line (no branch but the final self-loop), so every warp executes every instruction
# once and the exact count is warps x instructions (the topics' default sizes keep every thread in bounds).
# Prints the estimate's and the PTX count's error.
import glob, json, os, re, shutil, subprocess, sys, tempfile

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
tmp = tempfile.mkdtemp()
straight = {}
for f in glob.glob(build + '/gen/*.sass'):
    fn = None
    for line in open(f):
        m = re.match(r'^\.text\.(\w+):', line)
        if m: fn = m.group(1); straight[fn] = [0, True]; continue
        m = re.match(r'^\s+/\*[0-9a-f]{4}\*/\s+(@!?\w+\s+)?([A-Z0-9_.]+)', line)
        if fn and m:
            op = m.group(2)
            if op == 'NOP': continue
            if op.startswith('BRA') or op.startswith('BSSY') or op.startswith('BSYNC') or op.startswith('WARPSYNC'):
                if op.startswith('BRA') and '(.L_x_' in line and straight[fn][0] > 0 and last_exit: continue
                straight[fn][1] = False
            last_exit = op == 'EXIT'
            straight[fn][0] += 1
rows = []
for topic in ['gmem_patterns', 'transpose', 'smem_patterns', 'reduce', 'gemm']:
    out = subprocess.run([build + '/gpulab', 'run', topic, '--backend', 'sim', '--json', '--db', os.path.join(tmp, 'm.db')],
                         capture_output=True, text=True).stdout
    for v in json.loads(out)['launches']:
        m = v['metrics'] if isinstance(v['metrics'], dict) else {e['name']: e['value'] for e in v['metrics']}
        cands = [k for k in straight if k.endswith('_' + v['variant'])]
        if not cands: continue
        n, ok = straight[cands[0]]
        warps = v['grid'][0] * v['grid'][1] * v['grid'][2] * ((v['block'][0] * v['block'][1] * v['block'][2] + 31) // 32)
        est, ptx = m['smsp__inst_executed.sum'], m['gpulab__ptx_inst_executed.sum']
        if ok:
            exact = n * warps
            rows.append((cands[0], exact, est, ptx))
            print('%-22s exact %9d  estimate %9d (%+.1f%%)  PTX %9d (%+.1f%%)' % (cands[0], exact, est, 100.0 * (est - exact) / exact, ptx, 100.0 * (ptx - exact) / exact))
shutil.rmtree(tmp, ignore_errors=True)
