package io.okapigw.core.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What ends a module's processes when the gateway dies without running any code of its own (kill
 * -9, the OOM killer, a JVM crash): a watcher in the module's process group, a shell waiting on a
 * pipe whose only writer is the gateway. The gateway never writes to it; when the gateway dies the
 * kernel closes its end, the watcher reads end-of-file and sends the group SIGTERM, then SIGKILL
 * after {@link ProcessGroup#GRACE} (sooner when something sends the group SIGTERM meanwhile, as the
 * next start of the gateway does). The pipe is the process's standard input, which the JVM opens
 * for every process it starts and does not hand to any other (it closes every other descriptor in a
 * child), so no other process keeps it open; a pipe needs no polling and cannot be fooled by a
 * reused pid.
 *
 * <p>An {@code exec} module is exec'd by the shell once the watcher runs, so it is still the
 * process the gateway started (its pid, exit code and signals as before). The JVM closes a
 * process's standard input when that process ends, so an {@code exec} module that ends by itself
 * takes what it left in its group with it. A {@code cmdlineStart} shell runs in the foreground of
 * the shell the gateway started, which waits for the watcher once the command succeeded (it ends
 * with the command's exit code otherwise): a shell that leaves its module in the background ends at
 * once, and the pipe must stay open. The watcher needs a group to end: without {@code setsid} none
 * is added (then only the next start ends them, {@link Leftovers}).
 */
final class GatewayWatch {

  private static final String WATCHER =
      "exec 3<&0; ( read -r _ <&3; trap : TERM; kill -TERM -$$ 2>/dev/null; sleep "
          + ProcessGroup.GRACE.toSeconds()
          + "; kill -KILL -$$ ) & ";

  /** The watcher, then the module exec'd in the shell's place. */
  private static final String EXEC = WATCHER + "exec \"$@\" 3<&-";

  /** The watcher, the command in the foreground, then waiting for the watcher if it succeeded. */
  private static final String FOREGROUND =
      WATCHER + "\"$@\" 3<&-; rc=$?; exec 3<&-; [ $rc -eq 0 ] || exit $rc; wait";

  private GatewayWatch() {}

  /**
   * @param command the module's command (the program and its arguments)
   * @param exec whether it is the module itself ({@code exec}), else a {@code cmdlineStart} shell
   * @param env the module's environment: the shell's own {@code PWD} is not added to it
   * @return the command run under a watcher, when the module gets a process group of its own
   */
  static List<String> watched(List<String> command, boolean exec, Map<String, String> env) {
    if (ProcessGroup.leader().isEmpty()) {
      return command;
    }
    String script = (env.containsKey("PWD") ? "" : "unset PWD; ") + (exec ? EXEC : FOREGROUND);
    List<String> line = new ArrayList<>(List.of("/bin/sh", "-c", script));
    line.add("okapigw-module");
    line.addAll(command);
    return line;
  }
}
