/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.distlock.autoconfigure.DistributedLockProperties.Store;

/**
 * The condition of {@link ConditionalOnLockStore @ConditionalOnLockStore}: binds
 * {@code distlock.store} from the environment, so that a value that is not a store fails
 * startup with Spring Boot's report of the property and its valid values.
 */
class OnLockStoreCondition extends SpringBootCondition {

	private static final String PROPERTY = "distlock.store";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Store required = metadata.getAnnotations().get(ConditionalOnLockStore.class).getEnum("value", Store.class);
		Store selected = Binder.get(context.getEnvironment()).bind(PROPERTY, Store.class).orElse(Store.REDIS);
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnLockStore.class, required);
		return (selected == required) ? ConditionOutcome.match(message.because(PROPERTY + " is " + selected))
				: ConditionOutcome.noMatch(message.because(PROPERTY + " is " + selected));
	}

}
