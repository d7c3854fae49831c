package io.okapigw.core.registry;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that counts the calls of each of its methods, by name, then makes them on another; a
 * default method the other does not override runs here, so the calls it makes are counted too.
 */
public final class CountingStore {

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final RegistryStore store;

  public CountingStore(RegistryStore delegate) {
    store =
        (RegistryStore)
            Proxy.newProxyInstance(
                RegistryStore.class.getClassLoader(),
                new Class<?>[] {RegistryStore.class},
                (proxy, method, args) -> {
                  calls
                      .computeIfAbsent(method.getName(), n -> new AtomicInteger())
                      .incrementAndGet();
                  if (method.isDefault()
                      && delegate
                          .getClass()
                          .getMethod(method.getName(), method.getParameterTypes())
                          .isDefault()) {
                    // what the delegate does not do itself goes through here, counted
                    return InvocationHandler.invokeDefault(proxy, method, args);
                  }
                  try {
                    return method.invoke(delegate, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  /**
   * @return the counting store
   */
  public RegistryStore store() {
    return store;
  }

  /**
   * @return how often the method of that name was called since the last {@link #reset()}
   */
  public int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  /**
   * @return every method called since the last {@link #reset()}, with its count
   */
  public Map<String, Integer> all() {
    Map<String, Integer> found = new java.util.TreeMap<>();
    calls.forEach((name, n) -> found.put(name, n.get()));
    return found;
  }

  public void reset() {
    calls.clear();
  }
}
