package io.tyrl.arranger.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A stand-in for a service jar in {@link ServiceProcessPortsTest}: binds {@code --server.port} and
 * answers the readiness probe, or, when the port is taken, says so as Spring Boot does and exits 1.
 */
public final class PortClaimingService {

  private PortClaimingService() {}

  public static void main(String[] args) throws IOException {
    int port = -1;
    for (String arg : args) {
      if (arg.startsWith("--server.port=")) {
        port = Integer.parseInt(arg.substring("--server.port=".length()));
      }
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (BindException taken) {
      System.out.println("Web server failed to start. Port " + port + " was already in use.");
      System.exit(1);
      return;
    }
    server.createContext(
        "/actuator/health/readiness",
        exchange -> {
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
  }
}
