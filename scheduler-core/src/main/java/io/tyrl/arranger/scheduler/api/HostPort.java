package io.tyrl.arranger.scheduler.api;

/**
 * A port a pod binds on its node. Two bindings conflict when port and protocol are equal and their
 * host IPs overlap: equal, or either is the wildcard ({@code ""} or {@code 0.0.0.0}).
 */
public record HostPort(int port, String protocol, String hostIp) {

  public HostPort {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("host port must be within 1..65535, was " + port);
    }
    protocol = protocol == null || protocol.isBlank() ? "TCP" : protocol;
    hostIp = hostIp == null || hostIp.equals("0.0.0.0") ? "" : hostIp;
  }

  public static HostPort tcp(int port) {
    return new HostPort(port, "TCP", "");
  }

  public boolean conflictsWith(HostPort other) {
    return port == other.port
        && protocol.equals(other.protocol)
        && (hostIp.isEmpty() || other.hostIp.isEmpty() || hostIp.equals(other.hostIp));
  }
}
