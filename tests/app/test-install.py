#!/usr/bin/env python3
# test-install.py — the app installed: `meson install --destdir` into a temporary folder, then the
# bundled sample is where the window looks for it first (PKGDATADIR/samples, app/wb-window.c) and loads,
# and the zh_CN catalogue is where an installed thunder-wb looks (LOCALEDIR, app/wb-locale.h)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-install.py BUILD_ROOT THUNDER_WB      (TAP)
import os
import re
import subprocess
import sys
import tempfile


def config(build, name):
    with open(os.path.join(build, 'config.h'), encoding='utf-8') as f:
        m = re.search(r'#define ' + name + r' "([^"]*)"', f.read())
    return m.group(1)


def main():
    build, program = sys.argv[1], sys.argv[2]
    pkgdatadir, localedir = config(build, 'PKGDATADIR'), config(build, 'LOCALEDIR')
    print('1..3')
    with tempfile.TemporaryDirectory(prefix='wb-install-') as dest:
        r = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild', '--quiet', '--destdir', dest],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print('not ok 1 meson install\n# ' + r.stdout[-2000:] + r.stderr[-2000:])
            return 1
        print('ok 1 meson install --destdir')
        sample = dest + pkgdatadir + '/samples/mlp_small'
        ok = os.path.isfile(os.path.join(sample, 'forward_05.py'))
        if ok:
            r = subprocess.run([program, '--headless', 'check', sample], capture_output=True, text=True)
            ok = r.returncode == 0 and ' 0 errors' in r.stdout + r.stderr
        print(('ok' if ok else 'not ok') + f' 2 the sample installed in {pkgdatadir}/samples and checks clean')
        mo = dest + localedir + '/zh_CN/LC_MESSAGES/thunder-wb.mo'
        ok = os.path.isfile(mo) and os.path.getsize(mo) > 1000
        if ok:
            text = subprocess.run(['msgunfmt', mo], capture_output=True, text=True).stdout
            ok = '列出 PATH 中的 trace' in text and '查找节点' in text
        print(('ok' if ok else 'not ok') + f' 3 the zh_CN catalogue installed in {localedir}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
