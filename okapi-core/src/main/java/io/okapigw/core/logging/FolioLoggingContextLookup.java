package io.okapigw.core.logging;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.lookup.StrLookup;

/**
 * Okapi's Log4j lookup {@code FolioLoggingContext} ({@code $${FolioLoggingContext:requestid}},
 * {@code tenantid}, {@code userid}, {@code moduleid}), which the logging configurations Okapi ships
 * use ({@code dist/log4j2.properties} of its Debian package, its {@code log4j2.properties}): each
 * is empty here, as in Okapi's lines outside a request, so those files can be given with {@code
 * -Dlog4j.configurationFile} as they are; without the lookup their lines would show the {@code
 * ${...}} text.
 */
@Plugin(name = "FolioLoggingContext", category = StrLookup.CATEGORY)
public final class FolioLoggingContextLookup implements StrLookup {

  @Override
  public String lookup(String key) {
    return "";
  }

  @Override
  public String lookup(LogEvent event, String key) {
    return "";
  }
}
