package io.okapigw.demo;

import io.okapigw.config.Commands;

/**
 * Command line of the demo: {@code java -jar demo/target/demo-fat.jar demo ...} ({@code ./gateway
 * demo}).
 */
public final class Main {

  /** The demo's one command. */
  static final Commands COMMANDS =
      Commands.of("java -jar demo/target/demo-fat.jar")
          .add(
              "demo",
              "(or ./gateway demo ...) gateway + authtoken module + simulated circulation modules,"
                  + " tenant diku, user diku_admin / admin; admin API protected (super_admin /"
                  + " admin); prints login, check-out, check-in and admin API commands",
              DemoOptions.SPEC,
              DemoCommand::run);

  private Main() {}

  public static void main(String[] args) {
    COMMANDS.main(args);
  }
}
