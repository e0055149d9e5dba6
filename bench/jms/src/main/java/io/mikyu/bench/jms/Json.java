package io.mikyu.bench.jms;

import java.util.Map;

/** Just enough JSON for one flat result object. */
final class Json {

    private Json() {
    }

    static String write(Map<String, Object> map) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Object> e : map.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            string(b, e.getKey());
            b.append(':');
            Object v = e.getValue();
            if (v == null) {
                b.append("null");
            } else if (v instanceof Double d && !d.isNaN() && !d.isInfinite()) {
                // plain digits, never 1.2E7: the scripts read these numbers with sed and awk
                b.append(java.math.BigDecimal.valueOf(d).toPlainString());
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                string(b, v.toString());
            }
        }
        return b.append('}').toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
