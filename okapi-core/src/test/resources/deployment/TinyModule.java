import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A module for deployment tests, run as Okapi runs a module: {@code java TinyModule.java PORT}
 * (Java's single-file launch, no build). {@code GET /env/NAME} answers the variable's value, {@code
 * GET /exit} exits after its answer (a module that dies), every other request 200 {@code tiny}.
 * {@code java TinyModule.java exit} exits at once with 3.
 */
public class TinyModule {
  public static void main(String[] args) throws IOException {
    if (args[0].equals("exit")) {
      System.out.println("tiny: exiting at once");
      System.exit(3);
    }
    int port = Integer.parseInt(args[0]);
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          String body =
              path.startsWith("/env/")
                  ? String.valueOf(System.getenv(path.substring("/env/".length())))
                  : path.equals("/env")
                      ? String.join("\n", new java.util.TreeSet<>(System.getenv().keySet()))
                      : "tiny";
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
          if (path.equals("/exit")) {
            System.exit(0);
          }
        });
    server.start();
    System.out.println("tiny: listening on " + port);
  }
}
