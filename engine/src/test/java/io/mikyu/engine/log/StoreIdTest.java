package io.mikyu.engine.log;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Mikyu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store's identity: made once, kept in {@code store.id}, refused when damaged. */
class StoreIdTest {

    @TempDir
    Path root;

    @Test
    void aStoreKeepsItsIdAcrossReopensAndAnotherStoreHasAnother() {
        Path a = root.resolve("a");
        String id;
        try (Mikyu store = Mikyu.open(a)) {
            id = store.storeId();
            assertThat(UUID.fromString(id).toString()).as("a UUID's text").isEqualTo(id);
        }
        assertThat(a.resolve("store.id")).isRegularFile();
        try (Mikyu store = Mikyu.open(a)) {
            assertThat(store.storeId()).isEqualTo(id);
        }
        try (Mikyu other = Mikyu.open(root.resolve("b"))) {
            assertThat(other.storeId()).isNotEqualTo(id);
        }
    }

    @Test
    void aDataDirectoryWithoutTheFileGetsAnIdOnItsNextOpen() throws Exception {
        Path a = root.resolve("a");
        try (Mikyu store = Mikyu.open(a)) {
            store.createLog("kept").append(io.mikyu.engine.Entry.of("x"));
        }
        Files.delete(a.resolve("store.id")); // as a directory made before the file existed
        String id;
        try (Mikyu store = Mikyu.open(a)) {
            id = store.storeId();
            assertThat(store.log("kept").endOffset()).isEqualTo(1);
        }
        assertThat(a.resolve("store.id")).isRegularFile();
        try (Mikyu store = Mikyu.open(a)) {
            assertThat(store.storeId()).isEqualTo(id);
        }
    }

    @Test
    void aDamagedIdFileIsACorruptionNamingTheFile() throws Exception {
        Path a = root.resolve("a");
        Mikyu.open(a).close();
        Path file = a.resolve("store.id");
        byte[] bytes = Files.readAllBytes(file);
        assertThat(new String(bytes, 0, 8, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("MIKYUSID");

        byte[] flipped = bytes.clone();
        flipped[20] ^= 0x01;
        Files.write(file, flipped);
        assertThatThrownBy(() -> Mikyu.open(a)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("checksum");

        Files.write(file, java.util.Arrays.copyOf(bytes, 30));
        assertThatThrownBy(() -> Mikyu.open(a)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("30 bytes");

        byte[] badMagic = bytes.clone();
        badMagic[0] = 'X';
        Files.write(file, badMagic);
        assertThatThrownBy(() -> Mikyu.open(a)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a store id file");

        Files.write(file, bytes);
        Mikyu.open(a).close(); // the lock was released after each refusal
    }
}
