package io.okapigw.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP server that accepts every connection and never answers: a database whose first connect
 * hangs (a server starting up, an overloaded host). With it a PostgreSQL client connects, sends its
 * startup message and waits; its pool's wait times out while the connect is still pending.
 */
public final class SilentServer implements AutoCloseable {

  private final ServerSocket socket;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();

  private SilentServer(ServerSocket socket) {
    this.socket = socket;
  }

  /**
   * @return a server on a free port of the loopback interface, accepting in a daemon thread
   */
  public static SilentServer start() {
    try {
      SilentServer server =
          new SilentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
      Thread t = new Thread(server::accept, "silent-server");
      t.setDaemon(true);
      t.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        accepted.add(socket.accept());
      } catch (IOException e) {
        return;
      }
    }
  }

  /**
   * @return the port it listens on
   */
  public int port() {
    return socket.getLocalPort();
  }

  /**
   * @return how many connections it accepted so far
   */
  public int accepted() {
    return accepted.size();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : accepted) {
      s.close();
    }
  }
}
