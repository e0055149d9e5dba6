package io.mikyu.cli.bench;

/** Reads sample values out of a Prometheus text scrape (format 0.0.4), enough for the bench's few process meters. */
public final class PrometheusText {

    private PrometheusText() {
    }

    /**
     * The sum of the samples of metric {@code name} whose labels contain every one of {@code labels} (such as
     * {@code area="heap"}), or -1 if there is none.
     */
    public static double sum(String scrape, String name, String... labels) {
        double total = 0;
        boolean found = false;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            int end = name.length();
            if (line.length() == end || (line.charAt(end) != '{' && line.charAt(end) != ' ')) {
                continue; // another metric whose name starts with this one
            }
            int space = line.lastIndexOf(' ');
            String head = line.substring(0, space);
            boolean matches = true;
            for (String label : labels) {
                matches &= head.contains(label);
            }
            if (matches) {
                total += Double.parseDouble(line.substring(space + 1).trim());
                found = true;
            }
        }
        return found ? total : -1;
    }
}
