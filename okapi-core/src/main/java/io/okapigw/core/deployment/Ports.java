package io.okapigw.core.deployment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.BitSet;

/**
 * The ports this node gives the modules it deploys: {@code port_start} up to (not including) {@code
 * port_end}, each given to one module at a time, lowest first, as Okapi gives them. A port
 * something else listens on is passed over (Okapi fails the deployment instead).
 */
final class Ports {

  private final int start;
  private final int end;
  private final BitSet taken = new BitSet();

  Ports(int start, int end) {
    this.start = start;
    this.end = end;
  }

  /**
   * @return a port now given to the caller, or -1 if every port of the range is taken (Okapi's
   *     {@code all ports in use})
   */
  synchronized int take() {
    for (int port = start; port < end; port++) {
      if (!taken.get(port - start) && bindable(port)) {
        taken.set(port - start);
        return port;
      }
    }
    return -1;
  }

  /** Gives a port back; one outside the range, or not taken, is ignored. */
  synchronized void free(int port) {
    if (port >= start && port < end) {
      taken.clear(port - start);
    }
  }

  /**
   * @return how many ports of the range are taken
   */
  synchronized int inUse() {
    return taken.cardinality();
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
