package org.apache.kafka.test;

import org.apache.kafka.common.network.ConnectionMode;

import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * What the cluster test kit asks of Kafka's SSL test helper while it builds any cluster: a key store location. The
 * original (Kafka's clients test jar, not published to Maven Central for 4.4.0) makes real certificates; the tests
 * here run plaintext clusters only, so the files stay empty and no listener reads them.
 */
public final class TestSslUtils {

    private TestSslUtils() {
    }

    public static final class SslConfigsBuilder {
        private File trustStore;

        public SslConfigsBuilder(ConnectionMode mode) {
        }

        public SslConfigsBuilder createNewTrustStore(File file) {
            this.trustStore = file;
            return this;
        }

        public SslConfigsBuilder useExistingTrustStore(File file) {
            this.trustStore = file;
            return this;
        }

        public Map<String, Object> build() throws IOException {
            Map<String, Object> config = new HashMap<>();
            config.put("ssl.keystore.location", TestUtils.tempFile("kafka.keystore", ".jks").getPath());
            if (trustStore != null) {
                config.put("ssl.truststore.location", trustStore.getPath());
            }
            return config;
        }
    }
}
