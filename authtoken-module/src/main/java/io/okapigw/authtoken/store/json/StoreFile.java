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
import java.util.Set;

/**
 * The JSON store's directory: {@code store.json}, replaced atomically (write {@code
 * store.json.tmp}, fsync it, rename over {@code store.json}, fsync the directory), and {@code
 * store.lock}, locked while open so that no second process uses the directory. The directory and
 * its files are the owner's only ({@link OwnerOnly}). Blocking: call from a worker thread only.
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
    OwnerOnly.directory(dir);
    FileChannel channel =
        FileChannel.open(
            dir.resolve(LOCK),
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
            OwnerOnly.newFile());
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
    try {
      Files.deleteIfExists(dir.resolve(TEMP));
      OwnerOnly.file(dir.resolve(LOCK));
      OwnerOnly.file(dir.resolve(DATA));
    } catch (IOException | RuntimeException e) {
      lock.release();
      channel.close();
      throw e;
    }
    return new StoreFile(dir, channel, lock);
  }

  /**
   * @return the file's content, or {@code null} if there is none yet
   */
  Buffer read() throws IOException {
    Path data = dir.resolve(DATA);
    return Files.exists(data) ? Buffer.buffer(Files.readAllBytes(data)) : null;
  }

  /** Replaces the content atomically and durably. */
  void write(Buffer content) throws IOException {
    Path temp = dir.resolve(TEMP);
    // created rw------- and renamed over store.json, which so keeps those permissions
    try (FileChannel out =
        FileChannel.open(
            temp,
            Set.of(
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING),
            OwnerOnly.newFile())) {
      ByteBuffer bytes = ByteBuffer.wrap(content.getBytes());
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
      out.force(true);
    }
    Files.move(
        temp,
        dir.resolve(DATA),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
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
