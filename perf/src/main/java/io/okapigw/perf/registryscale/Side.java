package io.okapigw.perf.registryscale;

import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.testsupport.process.JavaProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One gateway of the run (ours or Okapi) and what was measured on it, by step. */
final class Side {

  final String name;
  final String url;
  final int port;
  final int maxTenants;
  JavaProcess process;
  Probe probe;
  boolean stopped;
  String stoppedWhy = "";

  /** Step (tenant count) to the install times (ms) of the tenants added in that step. */
  final Map<Integer, List<Double>> installs = new TreeMap<>();

  final Map<Integer, Latencies> during = new TreeMap<>();
  final Map<Integer, Latencies> idle = new TreeMap<>();
  final Map<Integer, Long> heapAfterGc = new TreeMap<>();

  Side(String name, int port, int maxTenants) {
    this.name = name;
    this.port = port;
    this.url = "http://127.0.0.1:" + port;
    this.maxTenants = maxTenants;
  }

  List<Double> installsOf(int step) {
    return installs.computeIfAbsent(step, s -> new ArrayList<>());
  }

  Latencies duringOf(int step) {
    return during.computeIfAbsent(step, s -> new Latencies());
  }

  Latencies idleOf(int step) {
    return idle.computeIfAbsent(step, s -> new Latencies());
  }

  /** Whether tenant {@code t} is installed on this side. */
  boolean takes(int t) {
    return !stopped && t <= maxTenants;
  }
}
