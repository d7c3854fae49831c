package io.okapigw.core.registry;

import java.util.Set;

/**
 * What a registry change means.
 *
 * @param staleGrants tenants whose cached auth decisions may no longer hold: their modules, and so
 *     their permission sets, changed; or their auth module moved or changed
 * @param scope what the change touched, so what routing recompiles
 */
public record RegistryChange(Set<String> staleGrants, ChangeScope scope) {}
