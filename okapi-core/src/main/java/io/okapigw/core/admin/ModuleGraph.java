package io.okapigw.core.admin;

import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.InterfaceReference;
import io.okapigw.core.registry.ModuleDescriptor;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Okapi's {@code dot=true} answer to a module list: the modules and what their {@code requires}
 * reach among them as a Graphviz {@code digraph okapi}, a red node for each requirement none of
 * them provides; character for character as Okapi 6.1.5 writes it ({@code GraphDot}).
 */
final class ModuleGraph {

  private ModuleGraph() {}

  /**
   * @param modules the modules, in the order to list them
   * @return the graph in DOT format
   */
  static String dot(List<ModuleDescriptor> modules) {
    StringBuilder doc = new StringBuilder("digraph okapi {\n");
    for (ModuleDescriptor module : modules) {
      doc.append("  ").append(node(module.id())).append(" [label=\"");
      doc.append(module.id()).append("\"];\n");
    }
    Set<String> missing = new TreeSet<>();
    for (ModuleDescriptor module : modules) {
      for (InterfaceReference required : module.requires()) {
        edges(doc, module, required, modules, missing);
      }
    }
    return doc.append("}\n").toString();
  }

  private static void edges(
      StringBuilder doc,
      ModuleDescriptor module,
      InterfaceReference required,
      List<ModuleDescriptor> modules,
      Set<String> missing) {
    int found = 0;
    for (ModuleDescriptor provider : modules) {
      for (InterfaceDescriptor provided : provider.provides()) {
        if (provided.isType("proxy")
            && provided.id().equals(required.id())
            && required.isSatisfiedBy(provided.version())) {
          edge(doc, module.id(), provider.id());
          found++;
        }
      }
    }
    if (found == 0) {
      String label = "missing " + required.id() + " " + required.version();
      if (missing.add(label)) {
        doc.append("  ").append(node(label)).append(" [label=\"").append(label);
        doc.append("\", color=red];\n");
      }
      edge(doc, module.id(), label);
    }
  }

  private static void edge(StringBuilder doc, String from, String to) {
    doc.append("  ").append(node(from)).append(" -> ").append(node(to)).append(";\n");
  }

  private static String node(String id) {
    return id.replace("-", "__").replace(".", "_").replace(' ', '_');
  }
}
