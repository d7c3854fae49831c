package io.okapigw.authtoken.store;

import java.time.Instant;

/**
 * A login session ended by logout or refresh-token reuse: its tokens are refused until {@code
 * until}, after which they have expired anyway.
 *
 * @param tenant tenant id
 * @param sessionId the session ({@code sid} claim)
 * @param until when the entry may be forgotten
 */
public record RevokedSession(String tenant, String sessionId, Instant until) {}
