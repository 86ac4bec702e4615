# orphan.py: starts grue's kernel with Jupyter's own client, prints the
# kernel's process id once it answers, and dies by SIGKILL: the kernel is
# left without its client (TestKernelExitsWithItsClient).
import os
import signal
import sys

from jupyter_client import KernelManager

km = KernelManager(kernel_name="grue")
km.start_kernel()
kc = km.client()
kc.start_channels()
kc.wait_for_ready(timeout=60)
proc = getattr(km.provisioner, "process", None) if km.provisioner else None
pid = proc.pid if proc is not None else km.kernel.pid
print("kernel pid", pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
