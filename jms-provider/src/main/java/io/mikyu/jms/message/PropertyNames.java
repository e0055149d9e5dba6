package io.mikyu.jms.message;

import java.util.Locale;
import java.util.Set;

/**
 * Property-name rules: a property name must be a message selector identifier (spec §3.5.1, §3.8.1.1), and the names
 * the specification reserves are refused when a client sets them.
 */
public final class PropertyNames {

    /** Provider-set on receive; never stored on the wire (derived from the engine's delivery attempt). */
    public static final String JMSX_DELIVERY_COUNT = "JMSXDeliveryCount";
    public static final String JMSX_GROUP_ID = "JMSXGroupID";
    public static final String JMSX_GROUP_SEQ = "JMSXGroupSeq";
    /** Provider-set on receive: the consumer's first message of a message group (as ActiveMQ Classic and Artemis). */
    public static final String JMSX_GROUP_FIRST_FOR_CONSUMER = "JMSXGroupFirstForConsumer";

    /** The JMSX properties this provider supports (what {@code ConnectionMetaData.getJMSXPropertyNames} lists). */
    public static final Set<String> SUPPORTED_JMSX = Set.of(JMSX_GROUP_ID, JMSX_GROUP_SEQ, JMSX_DELIVERY_COUNT);

    /** The JMSX properties a client may set. */
    private static final Set<String> CLIENT_JMSX = Set.of(JMSX_GROUP_ID, JMSX_GROUP_SEQ);

    private static final Set<String> RESERVED_WORDS = Set.of(
            "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    /** The header field names; they are selector header references, so they cannot be property names. */
    public static final Set<String> HEADER_FIELDS = Set.of(
            "JMSDestination", "JMSDeliveryMode", "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSReplyTo",
            "JMSRedelivered", "JMSType", "JMSExpiration", "JMSPriority", "JMSDeliveryTime");

    private PropertyNames() {
    }

    /** Whether {@code name} is a message selector identifier (Java identifier, not a selector keyword). */
    public static boolean isIdentifier(String name) {
        if (name == null || name.isEmpty() || !Character.isJavaIdentifierStart(name.codePointAt(0))) {
            return false;
        }
        for (int i = Character.charCount(name.codePointAt(0)); i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (!Character.isJavaIdentifierPart(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        // Selector keywords are case-insensitive, so "null" or "And" could never be referenced in a selector.
        return !RESERVED_WORDS.contains(name.toUpperCase(Locale.ROOT));
    }

    /**
     * Checks a name a client passes to a {@code setXxxProperty} method.
     *
     * @throws IllegalArgumentException if the name is null, empty, not a selector identifier, a header field name,
     *                                  a {@code JMSX} name other than JMSXGroupID and JMSXGroupSeq, or a
     *                                  {@code JMS_} (provider-specific) name
     */
    public static void checkSettable(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a property name must not be null or empty");
        }
        if (!isIdentifier(name)) {
            throw new IllegalArgumentException("not a valid property name (must be a selector identifier): " + name);
        }
        if (name.startsWith("JMSX")) {
            if (!CLIENT_JMSX.contains(name)) {
                throw new IllegalArgumentException("JMSX property " + name + " cannot be set by a client");
            }
        } else if (name.startsWith("JMS_")) {
            throw new IllegalArgumentException("JMS_<vendor> property names are reserved for providers: " + name);
        } else if (HEADER_FIELDS.contains(name)) {
            throw new IllegalArgumentException(name + " is a header field, not a property");
        }
    }
}
