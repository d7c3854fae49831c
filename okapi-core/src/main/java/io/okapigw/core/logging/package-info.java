/**
 * How the gateway's libraries log: {@link io.okapigw.core.logging.Slf4jLoggerFinder} sends what
 * they write to {@code System.Logger} (Caffeine does) through SLF4J to Log4j 2, so that {@code
 * log4j2.xml} decides about it like about everything else; {@link io.okapigw.core.logging.LogLevel}
 * sets every logger's level from Okapi's {@code loglevel}.
 */
package io.okapigw.core.logging;
