package io.okapigw.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a server whose first connections hang: the first {@code silent}
 * connections are accepted and never answered (a first connect on a busy machine), every later one
 * is passed through both ways. With it a test sees what a program does when its database's first
 * connect stalls and a pool wait times out, and that it gets through once the database answers.
 */
public final class StallingProxy implements AutoCloseable {

  private final ServerSocket socket;
  private final String targetHost;
  private final int targetPort;
  private final int silent;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  private StallingProxy(ServerSocket socket, String targetHost, int targetPort, int silent) {
    this.socket = socket;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.silent = silent;
  }

  /**
   * @param silent how many connections, from the first, are held without an answer
   * @return a proxy on a free port of the loopback interface, accepting in a daemon thread
   */
  public static StallingProxy start(String targetHost, int targetPort, int silent) {
    try {
      StallingProxy proxy =
          new StallingProxy(
              new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
              targetHost,
              targetPort,
              silent);
      daemon(proxy::accept, "stalling-proxy");
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        sockets.add(client);
        if (accepted.incrementAndGet() > silent) {
          Socket server = new Socket(targetHost, targetPort);
          sockets.add(server);
          daemon(() -> pipe(client, server), "stalling-proxy-up");
          daemon(() -> pipe(server, client), "stalling-proxy-down");
        }
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void pipe(Socket from, Socket to) {
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // one side closed: close both
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  /**
   * @return its port
   */
  public int port() {
    return socket.getLocalPort();
  }

  /**
   * @return how many connections it accepted so far, silent ones included
   */
  public int accepted() {
    return accepted.get();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    sockets.forEach(StallingProxy::closeQuietly);
  }
}
