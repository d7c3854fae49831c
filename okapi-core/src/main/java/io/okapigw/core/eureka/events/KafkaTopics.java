package io.okapigw.core.eureka.events;

import io.okapigw.core.eureka.EurekaOptions;
import java.time.Duration;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads FOLIO's topics on a thread of its own (Kafka's consumer blocks while it polls; never on an
 * event loop), as every sidecar reads them: in a consumer group of this node alone, so that every
 * node of a cluster gets every event. A topic is read from its start, so that events sent between
 * its creation and this node finding it (the sidecar reads from the newest offset and loses them)
 * still count; records older than {@code maxAge} concern no decision the node can still hold and
 * are skipped. A record that cannot be read is logged and skipped.
 */
final class KafkaTopics implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KafkaTopics.class);

  private final KafkaConsumer<String, String> consumer;
  private final Thread thread;
  private final long maxAgeMillis;
  private volatile boolean running = true;

  /**
   * @param topics the topic names to follow, as a pattern (new topics found within 10 s)
   * @param group this node's consumer group
   * @param handle given each record's topic and value
   * @param maxAge records older than this are skipped
   */
  KafkaTopics(
      EurekaOptions options,
      Pattern topics,
      String group,
      Duration maxAge,
      BiConsumer<String, String> handle) {
    this.maxAgeMillis = maxAge.toMillis();
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
    config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "10000");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    this.consumer = new KafkaConsumer<>(config);
    this.thread =
        new Thread(() -> run(topics, handle), "okapigw-kafka-" + group.replaceAll("\\W", "-"));
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run(Pattern topics, BiConsumer<String, String> handle) {
    try {
      consumer.subscribe(topics);
      while (running) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(1))) {
          if (System.currentTimeMillis() - record.timestamp() > maxAgeMillis) {
            continue;
          }
          try {
            handle.accept(record.topic(), record.value());
          } catch (RuntimeException e) {
            log.warn("event on {} skipped: {}", record.topic(), e.getMessage());
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      log.error("reading Kafka topics {} stopped", topics, e);
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  @Override
  public void close() {
    running = false;
    if (!thread.isAlive() && thread.getState() == Thread.State.NEW) {
      consumer.close(Duration.ZERO);
      return;
    }
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
