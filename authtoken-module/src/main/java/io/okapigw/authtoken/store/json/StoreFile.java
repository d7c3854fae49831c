package io.okapigw.authtoken.store.json;

import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The JSON store's directory: {@code store.json}, replaced atomically (write
 * {@code store.json.tmp}, fsync it, rename over {@code store.json}, fsync the directory),
 * and {@code store.lock}, locked while open so that no second process uses the directory.
 * Blocking: call from a worker thread only.
 */
final class StoreFile implements AutoCloseable {
  static final String DATA = "store.json";
  static final String TEMP = "store.json.tmp";
  static final String LOCK = "store.lock";

  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private StoreFile(Path dir, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  static StoreFile open(Path dir) throws IOException {
    Files.createDirectories(dir);
    FileChannel channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new IllegalStateException("--store: directory " + dir + " is in use by another store");
    }
    Files.deleteIfExists(dir.resolve(TEMP));
    return new StoreFile(dir, channel, lock);
  }

  /** @return the file's content, or {@code null} if there is none yet */
  Buffer read() throws IOException {
    Path data = dir.resolve(DATA);
    return Files.exists(data) ? Buffer.buffer(Files.readAllBytes(data)) : null;
  }

  /** Replaces the content atomically and durably. */
  void write(Buffer content) throws IOException {
    Path temp = dir.resolve(TEMP);
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer bytes = ByteBuffer.wrap(content.getBytes());
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
      out.force(true);
    }
    Files.move(temp, dir.resolve(DATA), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
