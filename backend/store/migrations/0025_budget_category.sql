-- A budget may count one FOCUS service category (AI and Machine Learning
-- across Bedrock, Azure OpenAI, Vertex AI and the AI vendors).
ALTER TABLE budgets ADD COLUMN category TEXT NOT NULL DEFAULT '';
