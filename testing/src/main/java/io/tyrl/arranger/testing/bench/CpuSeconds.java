package io.tyrl.arranger.testing.bench;

import io.tyrl.arranger.testing.ControlPlane;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU seconds a run costs kube-apiserver, etcd, the given processes, the benchmark itself and
 * the whole machine: read before and after it, the difference by name.
 */
final class CpuSeconds {

  /** The key of the whole machine's CPU seconds among the pids. */
  private static final long MACHINE = -1L;

  private final ControlPlane controlPlane;
  private final Map<String, Long> others;

  /** Others: the processes under test (besides the control plane) by name. */
  CpuSeconds(ControlPlane controlPlane, Map<String, Long> others) {
    this.controlPlane = controlPlane;
    this.others = others;
  }

  /** CPU seconds so far by pid. */
  Map<Long, Double> now() {
    Map<Long, Double> cpu = new LinkedHashMap<>();
    cpu.put(controlPlane.apiServerPid(), ProcStat.cpuSeconds(controlPlane.apiServerPid()));
    cpu.put(controlPlane.etcdPid(), ProcStat.cpuSeconds(controlPlane.etcdPid()));
    cpu.put(ProcessHandle.current().pid(), ProcStat.cpuSeconds(ProcessHandle.current().pid()));
    others.values().forEach(pid -> cpu.put(pid, ProcStat.cpuSeconds(pid)));
    cpu.put(MACHINE, ProcStat.totalCpuSeconds());
    return cpu;
  }

  /**
   * The CPU seconds between two readings by name, in the order the progress lines and the table
   * give them.
   */
  Map<String, Double> spent(Map<Long, Double> before, Map<Long, Double> after) {
    Map<String, Long> names = new LinkedHashMap<>();
    names.put("kube-apiserver", controlPlane.apiServerPid());
    names.put("etcd", controlPlane.etcdPid());
    names.putAll(others);
    names.put("benchmark", ProcessHandle.current().pid());
    names.put("machine", MACHINE);
    Map<String, Double> cpu = new LinkedHashMap<>();
    names.forEach((name, pid) -> cpu.put(name, after.get(pid) - before.get(pid)));
    return cpu;
  }
}
