package io.mikyu.client;

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
 * The network client's layering (docs/architecture.md, "Layering"): no package cycle, the engine's API only, and
 * nothing of JMS: it serves any user of the engine's interface.
 */
@AnalyzeClasses(locations = ClientArchitectureTest.ProductionClasses.class)
class ClientArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule usesTheEngineOnly = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.mikyu..").and(not(resideInAnyPackage("io.mikyu.engine..", "io.mikyu.client..",
                    "io.mikyu.protocol..", "io.mikyu.transport.."))));

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");

    @ArchTest
    static final ArchRule knowsNothingOfJms = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("jakarta.jms..", "io.mikyu.jms..", "io.mikyu.selector..");

    /** This module's production classes: the directory (or jar) that holds {@link RemoteMikyu}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(RemoteMikyu.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
