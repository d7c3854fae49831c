package io.okapigw.authtoken.store.json;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the store's directory and files the owner's only: {@code store.json} holds password and
 * refresh-token hashes. New ones are created {@code rwx------} / {@code rw-------} whatever the
 * umask; existing ones with wider permissions (a store written before this check, or under umask
 * 002) are tightened, with a warning naming the path and both permissions. A directory anyone may
 * write to (such as {@code /tmp}) is refused rather than changed: it is shared, and whoever can
 * write there can swap the store's files. On a file system without POSIX permissions nothing is
 * checked. Blocking.
 */
final class OwnerOnly {

  private static final Logger log = LoggerFactory.getLogger(OwnerOnly.class);
  private static final Set<PosixFilePermission> DIRECTORY =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private OwnerOnly() {}

  /** Creates {@code dir} (parents as usual, itself owner-only) or tightens it. */
  static void directory(Path dir) throws IOException {
    if (!posix()) {
      Files.createDirectories(dir);
      return;
    }
    if (!Files.isDirectory(dir)) {
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
      Files.setPosixFilePermissions(dir, DIRECTORY); // a restrictive umask could leave less
      return;
    }
    Set<PosixFilePermission> found = Files.getPosixFilePermissions(dir);
    if (found.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IllegalStateException(
          "--store: directory "
              + dir
              + " may be written by others ("
              + PosixFilePermissions.toString(found)
              + "); give the store a directory of its own");
    }
    tighten(dir, found, DIRECTORY);
  }

  /** Tightens an existing file to {@code rw-------}; nothing if it does not exist. */
  static void file(Path file) throws IOException {
    if (posix() && Files.exists(file)) {
      tighten(file, Files.getPosixFilePermissions(file), FILE);
    }
  }

  /**
   * @return the attributes that create a file {@code rw-------} (none without POSIX)
   */
  static FileAttribute<?>[] newFile() {
    return posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new FileAttribute<?>[0];
  }

  private static void tighten(
      Path path, Set<PosixFilePermission> found, Set<PosixFilePermission> wanted)
      throws IOException {
    if (wanted.containsAll(found)) {
      return;
    }
    Files.setPosixFilePermissions(path, wanted);
    log.warn(
        "--store: {} was {}, open to others; changed to {}",
        path,
        PosixFilePermissions.toString(found),
        PosixFilePermissions.toString(wanted));
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
