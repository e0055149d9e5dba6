package io.mikyu.spring.boot.autoconfigure;

import io.mikyu.jms.config.ProviderOptions;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.Map;

/** {@link ConditionalOnEmbeddedStore}: whether {@code spring.mikyu.url} is unset or a {@code vm://} URL. */
class OnEmbeddedStoreCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnEmbeddedStore.class.getName());
        boolean wantEmbedded = attributes == null || (Boolean) attributes.get("value");
        String url = context.getEnvironment().getProperty("spring.mikyu.url");
        boolean embedded = url == null || url.isBlank() || url.startsWith(ProviderOptions.VM_SCHEME);
        String what = url == null || url.isBlank() ? "spring.mikyu.url is not set: an embedded store"
                : embedded ? "spring.mikyu.url is a vm:// URL: an embedded store" : "spring.mikyu.url names a daemon";
        return embedded == wantEmbedded ? ConditionOutcome.match(what) : ConditionOutcome.noMatch(what);
    }
}
