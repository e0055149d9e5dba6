package io.mikyu.it;

import java.util.List;

/** One line of an application's {@code GET /deliveries} ({@code io.mikyu.it.app.Deliveries}), parsed. */
record RecordedDelivery(String body, int deliveryCount, boolean redelivered, String thread) {

    static RecordedDelivery parse(String line) {
        String[] f = line.split("\t", 4);
        return new RecordedDelivery(f[0], Integer.parseInt(f[1]), Boolean.parseBoolean(f[2]), f[3]);
    }

    static List<RecordedDelivery> parse(List<String> lines) {
        return lines.stream().map(RecordedDelivery::parse).toList();
    }

    static List<RecordedDelivery> of(String body, List<RecordedDelivery> deliveries) {
        return deliveries.stream().filter(d -> d.body.equals(body)).toList();
    }
}
