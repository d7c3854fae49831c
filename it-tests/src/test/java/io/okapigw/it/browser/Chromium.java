package io.okapigw.it.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} and {@code chromium-driver} (installed by {@code .ci/run}), found on
 * the {@code PATH} or named by {@code -Dokapigw.chromium} / {@code -Dokapigw.chromedriver}, and a
 * headless session of it with the flags that work in a container: no sandbox, no GPU, no QUIC, no
 * background traffic, a new empty profile.
 */
public final class Chromium {

  public static final String BROWSER_PROPERTY = "okapigw.chromium";
  public static final String DRIVER_PROPERTY = "okapigw.chromedriver";

  private Chromium() {}

  /**
   * @return the browser binary, if there is one
   */
  public static Optional<Path> browser() {
    return find(BROWSER_PROPERTY, List.of("chromium", "chromium-browser", "google-chrome"));
  }

  /**
   * @return the driver binary, if there is one
   */
  public static Optional<Path> driver() {
    return find(DRIVER_PROPERTY, List.of("chromedriver"));
  }

  /**
   * Starts a headless session in a 1024×900 window; the caller quits it.
   *
   * @param profile a new empty directory for the browser's profile
   */
  static ChromeDriver start(Path profile) {
    return start(profile, 1024, 900);
  }

  /**
   * Starts a headless session; the caller quits it.
   *
   * @param profile a new empty directory for the browser's profile
   * @param width the window's width in pixels
   * @param height its height: pages that draw only the rows in view (Jaeger's trace) need it tall
   */
  public static ChromeDriver start(Path profile, int width, int height) {
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(browser().orElseThrow().toFile())
            .addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=" + width + "," + height,
                "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(driver().orElseThrow().toFile())
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }

  private static Optional<Path> find(String property, List<String> names) {
    String given = System.getProperty(property);
    if (given != null && !given.isBlank()) {
      return Optional.of(Path.of(given)).filter(Files::isExecutable);
    }
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    return Stream.of(path.split(java.io.File.pathSeparator))
        .flatMap(dir -> names.stream().map(name -> Path.of(dir, name)))
        .filter(Files::isExecutable)
        .findFirst()
        .map(Chromium::real);
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path;
    }
  }
}
