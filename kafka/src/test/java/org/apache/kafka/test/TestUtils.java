package org.apache.kafka.test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * The two methods of Kafka's own test helper that the cluster test kit calls when it builds a cluster (for a trust
 * store file it creates up front and only fills for SSL clusters). Kafka's clients test jar, which has the original,
 * is not published to Maven Central for 4.4.0; the tests here run plaintext clusters, so temporary files suffice.
 */
public final class TestUtils {

    private TestUtils() {
    }

    public static File tempFile() throws IOException {
        return tempFile("kafka", ".tmp");
    }

    public static File tempFile(String prefix, String suffix) throws IOException {
        File file = Files.createTempFile(prefix, suffix).toFile();
        file.deleteOnExit();
        return file;
    }
}
