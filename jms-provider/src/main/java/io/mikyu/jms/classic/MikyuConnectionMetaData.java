package io.mikyu.jms.classic;

import io.mikyu.jms.message.PropertyNames;
import jakarta.jms.ConnectionMetaData;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** Jakarta Messaging 3.1, provider mikyu, and the JMSX properties mikyu sets or carries. */
final class MikyuConnectionMetaData implements ConnectionMetaData {

    static final MikyuConnectionMetaData INSTANCE = new MikyuConnectionMetaData();
    private static final String VERSION = versionOf();

    private static String versionOf() {
        String v = MikyuConnectionMetaData.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0" : v;
    }

    @Override
    public String getJMSVersion() {
        return "3.1";
    }

    @Override
    public int getJMSMajorVersion() {
        return 3;
    }

    @Override
    public int getJMSMinorVersion() {
        return 1;
    }

    @Override
    public String getJMSProviderName() {
        return "mikyu";
    }

    @Override
    public String getProviderVersion() {
        return VERSION;
    }

    @Override
    public int getProviderMajorVersion() {
        return part(0);
    }

    @Override
    public int getProviderMinorVersion() {
        return part(1);
    }

    private static int part(int i) {
        String[] parts = VERSION.split("[.-]");
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(List.of(PropertyNames.JMSX_DELIVERY_COUNT, "JMSXGroupID", "JMSXGroupSeq"));
    }
}
