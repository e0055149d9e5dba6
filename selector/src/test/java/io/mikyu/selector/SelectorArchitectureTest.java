package io.mikyu.selector;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;

import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The selector module's layering (docs/architecture.md, "Layering"): the engine's API only, and no JMS class, so a
 * broker evaluates selectors without the JMS provider or the Jakarta Messaging API.
 */
@AnalyzeClasses(locations = SelectorArchitectureTest.ProductionClasses.class)
class SelectorArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule usesTheEngineOnly = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.mikyu..").and(not(resideInAnyPackage("io.mikyu.engine..", "io.mikyu.selector.."))));

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");

    @ArchTest
    static final ArchRule knowsNoJmsClass = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("jakarta.jms..", "javax.jms..", "io.mikyu.jms..");

    /** This module's production classes: the directory (or jar) that holds {@link Selector}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(Selector.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
